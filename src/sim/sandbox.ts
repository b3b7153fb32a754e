/**
 * Demo data of sandbox mode: three agents with phone and WhatsApp integrations and campaigns in every status, with
 * Mexican contacts (E.164 numbers, Spanish names) and, for the older campaigns, call history with transcripts.
 * Ids of agents and integrations are fixed so a person can paste them into a create form.
 */
import type { ChannelType, Schedule } from '../outreach/schemas.js';
import type { SimControl } from './control.js';
import type { ContactFields } from './contacts.js';
import type { SandboxDriver } from './driver.js';
import type { SimState } from './model.js';

export interface SandboxOptions {
  /** Driver interval in ms (default 1500). */
  tickMs?: number;
  /** Seed of the demo data and of the driver's choices (default 1). */
  seed?: number;
  /** Wait between cycle iterations (default: the campaign's cooldown_minutes). */
  cooldownMs?: number;
  /** Run the interval driver (default true); control.tick() works either way. */
  live?: boolean;
}

export const SANDBOX_AGENTS = [
  { id: 'a1f4c2d8-3b6e-4f71-9c2a-5d8e7f6a1b01', name: 'Valeria Ríos · Cobranza' },
  { id: 'b2e5d3c9-4c7f-4a82-8d3b-6e9f8a7b2c02', name: 'Diego Salazar · Ventas' },
  { id: 'c3f6e4da-5d80-4b93-9e4c-7fa09b8c3d03', name: 'Lucía Herrera · Atención a clientes' },
] as const;

export const SANDBOX_INTEGRATIONS: { id: string; agent: number; type: ChannelType }[] = [
  { id: 'int-phone-valeria', agent: 0, type: 'phone_call' },
  { id: 'int-wa-valeria', agent: 0, type: 'whatsapp' },
  { id: 'int-phone-diego', agent: 1, type: 'phone_call' },
  { id: 'int-wa-diego', agent: 1, type: 'whatsapp' },
  { id: 'int-phone-lucia', agent: 2, type: 'phone_call' },
];

const FIRST = [
  'María',
  'José',
  'Guadalupe',
  'Juan',
  'Fernanda',
  'Luis',
  'Alejandra',
  'Carlos',
  'Sofía',
  'Miguel',
  'Daniela',
  'Jorge',
  'Valentina',
  'Ricardo',
  'Gabriela',
  'Francisco',
  'Ximena',
  'Eduardo',
  'Mariana',
  'Andrés',
  'Paola',
  'Roberto',
  'Camila',
  'Héctor',
  'Renata',
  'Arturo',
  'Lorena',
  'Óscar',
  'Verónica',
  'Emilio',
];
const LAST = [
  'Hernández',
  'García',
  'Martínez',
  'López',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Cruz',
  'Flores',
  'Gómez',
  'Morales',
  'Vázquez',
  'Jiménez',
  'Reyes',
  'Díaz',
  'Torres',
  'Gutiérrez',
  'Ruiz',
  'Mendoza',
  'Aguilar',
  'Ortiz',
  'Castillo',
  'Romero',
];
/** Mexican area codes (national numbers have 10 digits). */
const AREAS = ['55', '33', '81', '222', '442', '998', '477', '664'];

const DAY = 86_400_000;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;

/** What the demo campaigns are made of: the simulator, its random draws, the agents' ids, times in the past. */
interface Seeding {
  state: SimState;
  control: SimControl;
  driver: SandboxDriver;
  /** `n` Mexican contacts (E.164 numbers, Spanish names), each with its context line. */
  contacts(n: number, context: (i: number) => string): ContactFields[];
  /** An amount owed, in pesos. */
  amount(): string;
  /** The ISO instant `ms` ago. */
  ago(ms: number): string;
  officeHours: Schedule;
  valeria: string;
  diego: string;
  lucia: string;
}

/** The demo data: the agents and integrations, then campaigns live, waiting and with history (the draws in order). */
export function seedSandbox(state: SimState, control: SimControl, driver: SandboxDriver): void {
  const org = state.orgs[0] as string;
  for (const a of SANDBOX_AGENTS) control.addAgent({ ...a, org });
  for (const i of SANDBOX_INTEGRATIONS)
    control.addIntegration({ id: i.id, agentId: (SANDBOX_AGENTS[i.agent] as { id: string }).id, type: i.type });
  const [valeria, diego, lucia] = SANDBOX_AGENTS.map((a) => a.id) as [string, string, string];
  const pick = <T>(list: readonly T[]) => driver.pick(list);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(driver.random() * 10)).join('');
  const s: Seeding = {
    state,
    control,
    driver,
    contacts: (n, context) =>
      Array.from({ length: n }, (_, i) => {
        const area = pick(AREAS);
        return {
          contact: `+52${area}${digits(10 - area.length)}`,
          name: `${pick(FIRST)} ${pick(LAST)} ${pick(LAST)}`,
          context: context(i),
          f_id: `CLI-${digits(5)}`,
          extracted_data: {},
        };
      }),
    amount: () => `$${(500 + Math.floor(driver.random() * 40) * 125).toLocaleString('en-US')} MXN`,
    ago: (ms) => new Date(state.nowMs() - ms).toISOString(),
    officeHours: Object.fromEntries(WEEKDAYS.map((d) => [d, { startTime: '09:00', stopTime: '18:00', active: true }])),
    valeria,
    diego,
    lucia,
  };
  seedLiveCampaigns(s);
  seedWaitingCampaigns(s);
  seedPastCampaigns(s);
}

/** Active campaigns the driver works on. */
function seedLiveCampaigns({ control, contacts, amount, ago, officeHours, valeria, diego }: Seeding): void {
  control.seedCampaign({
    name: 'Recordatorio de pago · Marzo',
    description: 'Recordatorio amable de pagos con vencimiento este mes.',
    agentId: valeria,
    integrationId: 'int-phone-valeria',
    retries: 2,
    first_message: 'Le llamo para recordarle el pago de su mensualidad.',
    scheduling: officeHours,
    contacts: contacts(24, () => `Saldo pendiente de ${amount()} con vencimiento el día 15.`),
    status: 'active',
    created_at: ago(3 * DAY),
    started_at: ago(DAY),
  });
  control.seedCampaign({
    name: 'Hot Sale · Clientes frecuentes',
    description: 'Promoción de temporada para clientes con compras recientes.',
    agentId: diego,
    integrationId: 'int-wa-diego',
    template: 'promo_hot_sale',
    template_alt: 'promo_hot_sale_v2',
    contacts: contacts(20, () => 'Cliente frecuente; última compra hace menos de 60 días.'),
    status: 'active',
    created_at: ago(2 * DAY),
    started_at: ago(DAY / 2),
  });
}

/** Campaigns not started yet. */
function seedWaitingCampaigns({ control, contacts, ago, officeHours, diego, lucia }: Seeding): void {
  control.seedCampaign({
    name: 'Encuesta de satisfacción Q1',
    agentId: diego,
    integrationId: 'int-phone-diego',
    first_message: 'Le llamamos para una breve encuesta de satisfacción de dos minutos.',
    scheduling: officeHours,
    contacts: contacts(12, () => 'Compró en el primer trimestre.'),
    created_at: ago(DAY),
  });
  control.seedCampaign({
    name: 'Confirmación de citas · Clínica Roma',
    description: 'Confirma las citas de la semana; repite con quien no contestó.',
    agentId: lucia,
    integrationId: 'int-phone-lucia',
    cycles: {
      enabled: true,
      mode: 'cooldown',
      max_iterations: 3,
      cooldown_minutes: 30,
      filter_statuses: ['converted', 'answered'],
    },
    created_at: ago(DAY / 4),
  });
}

/** Campaigns with history: one paused halfway, a finished (archived) phone pilot, a finished WhatsApp one. */
function seedPastCampaigns({ state, control, driver, contacts, ago, valeria, lucia }: Seeding): void {
  const paused = control.seedCampaign({
    name: 'Reactivación de clientes inactivos',
    agentId: valeria,
    integrationId: 'int-phone-valeria',
    contacts: contacts(15, () => 'Sin compras en los últimos 6 meses.'),
    created_at: ago(10 * DAY),
  });
  playHistory(state, driver, paused.id as number, 9 * DAY, 8);
  control.setCampaignStatus(paused.id as number, 'inactive');

  const pilot = control.seedCampaign({
    name: 'Prueba piloto · Noviembre',
    agentId: lucia,
    integrationId: 'int-phone-lucia',
    retries: 0,
    contacts: contacts(6, () => 'Piloto de llamadas de bienvenida.'),
    created_at: ago(150 * DAY),
  });
  playHistory(state, driver, pilot.id as number, 149 * DAY, 6);
  state.inThePast(148 * DAY, () => control.setCampaignStatus(pilot.id as number, 'finished'));
  const pilotRec = state.campaigns.get(pilot.id as number);
  if (pilotRec) pilotRec.archived = true;

  const buenFin = control.seedCampaign({
    name: 'Buen Fin 2025 · Seguimiento',
    agentId: valeria,
    integrationId: 'int-wa-valeria',
    template: 'buen_fin_seguimiento',
    contacts: contacts(16, () => 'Visitó la tienda en línea durante el Buen Fin.'),
    created_at: ago(120 * DAY),
  });
  const wa = state.campaigns.get(buenFin.id as number);
  if (!wa) return;
  state.inThePast(119 * DAY, () => {
    wa.status = 'active';
    wa.started_at = state.nowIso();
    for (const x of wa.contacts.values()) for (let i = 0; i < 12 && !x.done; i++) driver.stepWhatsapp(wa, x);
  });
  state.inThePast(118 * DAY, () => control.setCampaignStatus(wa.id, 'finished'));
}

/** Plays `calls` complete calls of a campaign, `agoMs` in the past, minutes apart. */
function playHistory(state: SimState, driver: SandboxDriver, id: number, agoMs: number, calls: number): void {
  const c = state.campaigns.get(id);
  if (!c) return;
  state.inThePast(agoMs, () => {
    c.status = 'active';
    c.started_at = state.nowIso();
  });
  for (let i = 0; i < calls; i++) {
    const next = [...c.contacts.values()].find((x) => x.status === 'queue' || x.status === 'retrying');
    if (!next) break;
    state.inThePast(agoMs - i * 7 * 60_000, () => driver.completeCall(c, next));
  }
}
