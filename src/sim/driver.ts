/**
 * The live driver of the sandbox: each tick it moves active campaigns forward the way the real service would.
 *
 * Phone campaigns: up to `concurrency_limit` calls at a time go created -> queued -> ringing -> in-progress ->
 * ended (or busy / no-answer / failed), one step per tick, with the mix of CALL_OUTCOMES; the conversation is written
 * to the thread as it happens (AI / EU / SYS messages in Spanish), the contact ends answered / converted / voicemail /
 * retrying / failed, and the call gets a policy evaluation. When nothing is left to call the campaign finishes, or
 * with cycles enters cooldown and later starts its next iteration.
 *
 * WhatsApp campaigns: contacts move queue -> sending -> sent -> delivered -> read -> accepted / rejected / converted
 * (a few fail), with the template and the replies written to their threads.
 *
 * Randomness comes from a seeded generator, so a seed replays the same story.
 */
import type { AnsweredBy } from '../outreach/schemas.js';
import { beginIteration, setCampaignStatus } from './campaigns.js';
import {
  appendMessage,
  createCall,
  endUserForContact,
  policyEvaluation,
  threadBetween,
  updateCall,
  type PolicyOutcome,
} from './conversations.js';
import type { CallRec, CampaignRec, ContactRec, SimState, ThreadRec } from './model.js';
import { isTerminalCall } from './views.js';

/** mulberry32: small, fast, seedable. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Outcome = 'human' | 'machine' | 'no-answer' | 'busy' | 'failed';

/** Share of each call outcome. */
const CALL_OUTCOMES: [Outcome, number][] = [
  ['human', 0.55],
  ['machine', 0.1],
  ['no-answer', 0.15],
  ['busy', 0.1],
  ['failed', 0.1],
];
/** Share of calls answered by a person that end with the contact converted. */
const CONVERSION_RATE = 0.35;

export interface DriverOptions {
  seed?: number;
  /** Wait of a cooldown between cycle iterations; default cycles.cooldown_minutes (real minutes). */
  cooldownMs?: number;
  /** Ticks a `retrying` contact waits before it is called again (default 3). */
  retryDelayTicks?: number;
}

type Step = 'queued' | 'ringing' | 'in-progress' | 'talk' | 'ended' | 'busy' | 'no-answer' | 'failed';

interface CallPlan {
  outcome: Outcome;
  steps: Step[];
  convert: boolean;
  duration: number;
  lines: [eu: string, ai: string][];
}

const OPENERS = ['Sí, soy yo. ¿De qué se trata?', 'Bueno, ¿quién habla?', 'Sí, dígame.', 'Ajá, ¿qué necesita?'];
const MIDDLES: [string, string][] = [
  ['Claro, tengo un minuto.', 'Gracias. Solo quiero confirmar algunos datos de su cuenta, ¿le parece?'],
  ['Está bien, adelante.', 'Perfecto. Veo que su último pago fue hace unas semanas, ¿es correcto?'],
  ['Sí, así es.', 'Muy bien. Tenemos una opción que podría interesarle para este mes.'],
  ['¿Y cuánto sería?', 'Depende del plan que elija; le puedo enviar los detalles por WhatsApp.'],
];
const CONVERTED_LINES: [string, string] = [
  'Sí, mándemelos por favor, me interesa.',
  '¡Excelente! Se los envío en este momento y dejo registrado su interés. ¡Que tenga un excelente día!',
];
const DECLINED_LINES: [string, string][] = [
  ['Ahorita no, gracias. Tal vez más adelante.', 'Entendido, gracias por su tiempo. ¡Hasta luego!'],
  ['No me interesa, gracias.', 'Con gusto, no le molestamos más. ¡Buen día!'],
  ['Llámeme la próxima semana, por favor.', 'Claro, lo anoto para la próxima semana. ¡Gracias!'],
];
const DECLINE_RESULT = ['no interesado', 'no interesado', 'volver a llamar'];

export class SandboxDriver {
  private rng: () => number;
  private readonly plans = new Map<string, CallPlan>();

  constructor(
    private readonly state: SimState,
    private readonly opts: DriverOptions = {},
  ) {
    this.rng = seededRandom(opts.seed ?? 1);
  }

  reset(): void {
    this.plans.clear();
    this.rng = seededRandom(this.opts.seed ?? 1);
  }

  random(): number {
    return this.rng();
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rng() * list.length)] as T;
  }

  private between(min: number, max: number): number {
    return min + Math.floor(this.rng() * (max - min + 1));
  }

  tick(): void {
    const state = this.state;
    state.tickCount += 1;
    // Calls already under way continue even when their campaign was paused meanwhile.
    for (const [id, plan] of [...this.plans]) {
      const call = state.calls.get(id);
      if (!call || isTerminalCall(call.status)) this.plans.delete(id);
      else this.stepCall(call, plan);
    }
    for (const c of [...state.campaigns.values()]) {
      if (c.status === 'cooldown') {
        if (c.cooldown_until !== null && Date.parse(c.cooldown_until) <= state.nowMs()) beginIteration(state, c);
        continue;
      }
      if (c.status !== 'active') continue;
      if (c.integrationType === 'phone_call') this.phoneTick(c);
      else this.whatsappTick(c);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Phone

  private inFlight(c: CampaignRec): number {
    let n = 0;
    for (const id of this.plans.keys()) if (this.state.calls.get(id)?.campaignId === c.id) n++;
    return n;
  }

  private phoneTick(c: CampaignRec): void {
    const tick = this.state.tickCount;
    let running = this.inFlight(c);
    while (running < c.concurrency_limit) {
      const next = [...c.contacts.values()].find(
        (x) => x.status === 'queue' || (x.status === 'retrying' && (x.retryAtTick ?? 0) <= tick),
      );
      if (!next) break;
      this.startCall(c, next);
      running++;
    }
    const waiting = [...c.contacts.values()].some((x) => ['queue', 'retrying', 'sending'].includes(x.status));
    // An active campaign without contacts waits for them instead of finishing at once.
    if (running === 0 && !waiting && c.contacts.size > 0) this.endIteration(c);
  }

  private endIteration(c: CampaignRec): void {
    if (c.cycles.enabled && c.cycle_current_iteration < (c.cycles.max_iterations ?? 1)) {
      setCampaignStatus(this.state, c, 'cooldown');
      if (this.opts.cooldownMs !== undefined)
        c.cooldown_until = new Date(this.state.nowMs() + this.opts.cooldownMs).toISOString();
    } else setCampaignStatus(this.state, c, 'finished');
  }

  private planCall(): CallPlan {
    let r = this.rng();
    let outcome: Outcome = 'human';
    for (const [o, share] of CALL_OUTCOMES) {
      if (r < share) {
        outcome = o;
        break;
      }
      r -= share;
    }
    const convert = outcome === 'human' && this.rng() < CONVERSION_RATE;
    const talk = outcome === 'human' ? this.between(2, 4) : 0;
    const steps: Step[] =
      outcome === 'human'
        ? ['queued', 'ringing', 'in-progress', ...Array<Step>(talk).fill('talk'), 'ended']
        : outcome === 'machine'
          ? ['queued', 'ringing', 'in-progress', 'ended']
          : outcome === 'no-answer'
            ? ['queued', 'ringing', 'ringing', 'no-answer']
            : outcome === 'busy'
              ? ['queued', 'ringing', 'busy']
              : ['queued', 'failed'];
    const lines = MIDDLES.slice(0, Math.max(1, talk - 1));
    return {
      outcome,
      steps,
      convert,
      duration: outcome === 'human' ? this.between(45, 240) : outcome === 'machine' ? this.between(15, 35) : 0,
      lines: [...lines, convert ? CONVERTED_LINES : this.pick(DECLINED_LINES)],
    };
  }

  private startCall(c: CampaignRec, x: ContactRec): CallRec {
    const call = createCall(this.state, c, { contactId: x.id });
    this.plans.set(call.id, this.planCall());
    return call;
  }

  /** Places a call and plays it to its end at once (sandbox history). */
  completeCall(c: CampaignRec, x: ContactRec): CallRec {
    const call = this.startCall(c, x);
    const plan = this.plans.get(call.id) as CallPlan;
    while (!isTerminalCall(call.status)) this.stepCall(call, plan);
    this.plans.delete(call.id);
    return call;
  }

  private thread(call: CallRec): ThreadRec {
    return this.state.threads.get(call.thread_id) as ThreadRec;
  }

  private stepCall(call: CallRec, plan: CallPlan): void {
    const step = plan.steps.shift();
    if (step === undefined) return;
    const thread = this.thread(call);
    switch (step) {
      case 'queued':
      case 'ringing':
        updateCall(this.state, call, { status: step });
        return;
      case 'in-progress':
        this.answerCall(call, plan, thread);
        return;
      case 'talk': {
        const pair = plan.lines.length > 1 ? plan.lines.shift() : undefined;
        if (pair) this.exchange(thread, pair);
        return;
      }
      case 'ended':
        this.endCall(call, plan, thread);
        return;
      default:
        // busy, no-answer, failed
        this.missCall(call, step, thread);
    }
  }

  /** The call is answered, by a person (the agent greets them, they answer) or by voicemail. */
  private answerCall(call: CallRec, plan: CallPlan, thread: ThreadRec): void {
    const state = this.state;
    const c = state.campaigns.get(call.campaignId ?? -1);
    const contact = c?.contacts.get(call.contactId ?? -1);
    const firstName = (contact?.name || '').split(' ')[0] || 'cliente';
    const agentName = state.agents.get(thread.agentId)?.name.split(' ')[0] ?? 'su asesora';
    const answered_by: AnsweredBy = plan.outcome === 'machine' ? 'machine' : 'human';
    updateCall(state, call, { status: 'in-progress', answered_by });
    if (answered_by === 'machine') {
      appendMessage(state, thread, { sent_by: 'SYS', content: 'Buzón de voz detectado.' });
      appendMessage(state, thread, {
        sent_by: 'AI',
        content: `Hola ${firstName}, le habla ${agentName}. Le llamaremos más tarde; si lo prefiere, responda este mensaje por WhatsApp. ¡Gracias!`,
      });
      return;
    }
    appendMessage(state, thread, { sent_by: 'SYS', content: 'Llamada conectada.' });
    appendMessage(state, thread, {
      sent_by: 'AI',
      content: `Hola, buenas tardes. ¿Hablo con ${firstName}? Le habla ${agentName}. ${c?.first_message ?? ''}`.trim(),
    });
    appendMessage(state, thread, { sent_by: 'EU', content: this.pick(OPENERS), read: true });
  }

  /** The call ends: what is left of the conversation, its length, and the outcome the plan chose. */
  private endCall(call: CallRec, plan: CallPlan, thread: ThreadRec): void {
    const state = this.state;
    for (const pair of plan.lines.splice(0)) {
      if (plan.outcome === 'human') this.exchange(thread, pair);
    }
    const minutes = Math.floor(plan.duration / 60);
    const seconds = String(plan.duration % 60).padStart(2, '0');
    appendMessage(state, thread, { sent_by: 'SYS', content: `Llamada finalizada · duración ${minutes}:${seconds}` });
    if (plan.outcome === 'machine') {
      updateCall(state, call, {
        status: 'ended',
        duration: plan.duration,
        ended_by: 'agent',
        ended_reason: 'voicemail',
      });
      return;
    }
    const results: PolicyOutcome[] = [
      'met',
      this.rng() < 0.8 ? 'met' : 'not_met',
      plan.convert ? 'met' : this.rng() < 0.5 ? 'not_applicable' : 'not_met',
    ];
    const day = new Date(state.nowMs() + 7 * 86_400_000).toISOString().slice(0, 10);
    updateCall(state, call, {
      status: 'ended',
      duration: plan.duration,
      ended_by: this.rng() < 0.6 ? 'agent' : 'user',
      ended_reason: plan.convert ? 'assistant-ended-call' : 'customer-ended-call',
      policy_evaluation: policyEvaluation(state.nowIso(), results),
      extracted_data: plan.convert
        ? { resultado: 'interesado', siguiente_paso: 'enviar detalles por WhatsApp', fecha_compromiso: day }
        : { resultado: this.pick(DECLINE_RESULT) },
      tags: plan.convert ? ['interesado'] : ['seguimiento'],
      contactStatus: plan.convert ? 'converted' : undefined,
    });
  }

  /** Nobody answered (busy, no-answer) or the call failed; a retrying contact is called again a few ticks later. */
  private missCall(call: CallRec, step: 'busy' | 'no-answer' | 'failed', thread: ThreadRec): void {
    const state = this.state;
    const contact = state.campaigns.get(call.campaignId ?? -1)?.contacts.get(call.contactId ?? -1);
    const reason = step === 'failed' ? this.pick(['carrier-error', 'invalid-number', 'network-error']) : step;
    updateCall(state, call, { status: step, ended_reason: reason });
    const said =
      step === 'busy' ? 'Línea ocupada.' : step === 'no-answer' ? 'Sin respuesta.' : `Llamada fallida (${reason}).`;
    appendMessage(state, thread, { sent_by: 'SYS', content: said });
    if (contact?.status === 'retrying') contact.retryAtTick = state.tickCount + (this.opts.retryDelayTicks ?? 3);
  }

  /** The end user says one thing (read), the agent answers. */
  private exchange(thread: ThreadRec, [eu, ai]: [string, string]): void {
    appendMessage(this.state, thread, { sent_by: 'EU', content: eu, read: true });
    appendMessage(this.state, thread, { sent_by: 'AI', content: ai });
  }

  // -------------------------------------------------------------------------------------------------------------
  // WhatsApp

  /** Contacts in motion at once per campaign. */
  static readonly WHATSAPP_BATCH = 8;

  private whatsappTick(c: CampaignRec): void {
    const contacts = [...c.contacts.values()];
    let moving = contacts.filter((x) => !x.done && x.status !== 'queue').length;
    for (const x of contacts) {
      if (x.done) continue;
      if (x.status === 'queue') {
        if (moving >= SandboxDriver.WHATSAPP_BATCH) continue;
        moving++;
      }
      this.stepWhatsapp(c, x);
    }
    if (contacts.length > 0 && contacts.every((x) => x.done)) setCampaignStatus(this.state, c, 'finished');
  }

  private waThread(c: CampaignRec, x: ContactRec): ThreadRec {
    const eu = endUserForContact(this.state, c, x);
    return threadBetween(this.state, c.org, c.agentId, eu.id, { id: c.integrationId, type: c.integrationType });
  }

  stepWhatsapp(c: CampaignRec, x: ContactRec): void {
    const r = this.rng();
    const first = x.name.split(' ')[0] || 'hola';
    switch (x.status) {
      case 'queue':
        x.status = 'sending';
        return;
      case 'sending':
      case 'retrying':
        if (r < 0.05) {
          x.status = 'failed';
          x.done = true;
          return;
        }
        x.status = 'sent';
        x.last_call_at = this.state.nowIso();
        appendMessage(this.state, this.waThread(c, x), {
          sent_by: 'AI',
          type: 'template',
          content: `Hola ${first} 👋 Tenemos una promoción especial para ti esta semana. ¿Te comparto los detalles? (plantilla ${c.template ?? 'promo'})`,
        });
        return;
      case 'sent':
        if (r < 0.85) x.status = 'delivered';
        return;
      case 'delivered':
        if (r < 0.7) x.status = 'read';
        else if (r > 0.95) x.done = true; // never read
        return;
      case 'read': {
        const t = this.waThread(c, x);
        if (r < 0.3) {
          x.status = 'accepted';
          this.exchange(t, [
            'Sí, me interesa. ¿Qué incluye?',
            'Incluye 20% de descuento y envío gratis hasta el domingo. ¿Te aparto uno?',
          ]);
        } else if (r < 0.45) {
          x.status = 'converted';
          x.extracted_data = { ...x.extracted_data, resultado: 'compra confirmada' };
          this.exchange(t, [
            'Quiero comprarlo, ¿cómo pago?',
            '¡Listo! Te envío la liga de pago en un momento. ¡Gracias por tu compra!',
          ]);
        } else if (r < 0.6) {
          x.status = 'rejected';
          this.exchange(t, ['No, gracias.', 'Entendido, gracias por tu tiempo. ¡Buen día!']);
        }
        x.done = true; // stays "read" without answer otherwise
        return;
      }
      default:
        x.done = true;
    }
  }
}
