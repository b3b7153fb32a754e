/**
 * The campaign detail, the campaign form and its views and summaries, the who-did-what lines, error replies and the
 * service's sentences, in both languages: within Slack's limits with hostile and long input, Spanish where Spanish
 * is asked for (snapshots), English exactly as before (the service sentences match `humanMessage` word for word).
 */
import { LOCALES, type Locale } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { humanMessage, OutreachError, type OutreachErrorInit } from '../../src/outreach/errors.js';
import { campaignDetailMessage } from '../../src/render/campaign-detail.js';
import {
  campaignCreatedMessage,
  campaignFormView,
  campaignUpdatedMessage,
  CYCLES_ON,
  decodeMetadata,
  doneView,
  editTitle,
  finishedReadOnlyView,
  formProblemView,
  loadingView,
  noChangesView,
  submitProblemView,
  workingView,
  type FormDirectory,
} from '../../src/render/campaign-form.js';
import { errorMessage, lifecycleResultMessage, successMessage } from '../../src/render/feedback.js';
import { serviceErrorText } from '../../src/render/service-error.js';
import type { SlackMessage, View } from '../../src/render/types.js';
import { auditLine } from '../../src/slack/audit.js';
import { editFormView } from '../../src/slack/campaign-form/open.js';
import { mapServiceError, validateCreate, validateEdit } from '../../src/slack/campaign-form/state.js';
import { fixedSettingsOf } from '../../src/slack/campaign-form/open.js';
import { validateView } from '../../src/emulator/block-kit-limits.js';
import { campaignDetail, HOSTILE } from '../support/blocksFixtures.js';
import { allTexts, assertWithinMessageLimits } from '../support/messageChecks.js';

const es = translator('es');
const en = translator('en');
const AGENT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const LONG_NAME = (HOSTILE + '&').repeat(10).slice(0, 255);

function directory(agents = 40, each = 6): FormDirectory {
  return {
    agents: Array.from({ length: agents }, (_, a) => ({
      id: `${String(a).padStart(8, '0')}-7425-40de-944b-e07fc1f90ae7`,
      name: `${HOSTILE} agente ${a} ${'x'.repeat(80)}`,
      integrations: Array.from({ length: each }, (_, i) => ({
        id: `int-${a}-${i}`,
        type: i % 2 === 0 ? ('phone_call' as const) : ('whatsapp' as const),
      })),
    })),
  };
}

function noLiveMarkup(m: SlackMessage): void {
  for (const t of allTexts(m)) expect(t.replace(/<@U1>/g, '')).not.toMatch(/<(?!@U1>)/);
}

const json = (v: unknown) => JSON.stringify(v);

describe.each(LOCALES)('campaign detail (%s)', (locale: Locale) => {
  const t = translator(locale);

  it('long texts, many analytics and a hostile name stay within the limits', () => {
    const analytics: Record<string, unknown> = { calls: 5, weird: { nested: HOSTILE }, flag: true, missing: null };
    for (let i = 0; i < 40; i++) analytics[`metric${i}Rate`] = i;
    const m = campaignDetailMessage(
      campaignDetail({
        name: LONG_NAME,
        analytics,
        description: `${HOSTILE} ${'d'.repeat(10_000)}`,
        first_message: '&'.repeat(10_000),
        template: HOSTILE,
      }),
      { timeZone: 'Europe/Madrid' },
      t,
    );
    assertWithinMessageLimits(m);
    noLiveMarkup(m);
    expect(json(m.blocks)).toContain(
      locale === 'es' ? '…y 14 métricas más que no se muestran.' : '…and 14 more metrics not shown.',
    );
  });

  it('reads in the language, with the date in the viewer’s zone naming it', () => {
    const m = campaignDetailMessage(campaignDetail(), { timeZone: 'America/New_York' }, t);
    const s = json(m.blocks);
    // 2026-03-05T14:07Z is 09:07 in New York (EST), not 08:07 as in the campaign's Mexico City.
    expect(s).toContain(t.date('2026-03-05T14:07:00Z', { timeZone: 'America/New_York' }));
    expect(s).toContain('09:07');
    if (locale === 'es') {
      for (const w of ['"Campaña #12"', '*Agente*', '*Creada*', '*Horario semanal*', '"👥 Contactos"', '12.5 %'])
        expect(s).toContain(w);
      expect(s).toContain('1,234');
      expect(s).not.toMatch(/Created|Weekly schedule|Contacts called|Upload contacts/);
    } else {
      expect(s).toContain('2026-03-05 09:07 EST');
      expect(s).toContain('12.5%');
    }
    expect(m).toMatchSnapshot();
  });

  it('without the viewer’s zone, dates are in the campaign’s', () => {
    const m = campaignDetailMessage(campaignDetail(), {}, t);
    expect(json(m.blocks)).toContain(t.date('2026-03-05T14:07:00Z', { timeZone: 'America/Mexico_City' }));
  });
});

describe.each(LOCALES)('campaign form (%s)', (locale: Locale) => {
  const t = translator(locale);
  const lang = locale === 'en' ? {} : { lang: locale };

  it('the create form, phone with scheduled cycles and a large directory, within the modal limits', () => {
    const dir = directory();
    const view = campaignFormView(
      {
        mode: 'create',
        values: {
          integration_type: 'phone_call',
          'cycles.enabled': [CYCLES_ON],
          'cycles.mode': 'scheduled',
          name: LONG_NAME,
          first_message: 'f'.repeat(4000),
        },
        directory: dir,
        metadata: { mode: 'create', postTo: 'C1', ...lang },
      },
      t,
    );
    expect(validateView(view, 'modal')).toEqual([]);
    expect(decodeMetadata(view.private_metadata)?.lang).toBe(locale === 'en' ? undefined : locale);
    const s = json(view);
    if (locale === 'es') {
      for (const w of ['"Nueva campaña"', '"Crear"', '"Cancelar"', '"Canal"', '"Nombre"', '"Lunes: inicio"'])
        expect(s).toContain(w);
      expect(s).toContain('"Programado: rondas en un horario semanal"');
    } else {
      for (const w of ['"New campaign"', '"Create"', '"Cancel"', '"Channel"', '"Monday start"']) expect(s).toContain(w);
    }
  });

  it('the edit form, and the views around the form, within the limits', () => {
    const c = campaignDetail({ name: LONG_NAME, first_message: 'f'.repeat(5000) });
    const views: View[] = [
      editFormView(c, 'C1', t),
      finishedReadOnlyView(campaignDetail({ status: 'finished', name: LONG_NAME }), t),
      loadingView(editTitle(123456789012345, t), t.t('campaignForm.loading.campaign', { id: '123456789012345' }), t),
      formProblemView(editTitle(12, t), serviceErrorText(new Error(HOSTILE), t), t),
      submitProblemView(LONG_NAME, [LONG_NAME, `name: ${'n'.repeat(500)}`], t),
      workingView('x', 'create', t),
      workingView('x', 'edit', t),
      doneView('x', t.t('campaignForm.doneSaved', { name: 'n', id: '1' }), t),
      noChangesView(123456789012345, t),
    ];
    for (const v of views) expect(validateView(v, 'modal')).toEqual([]);
    expect(editTitle(123456789012345, t).length).toBeLessThanOrEqual(24);
    if (locale === 'es') {
      expect(json(views[0])).toContain('"Guardar cambios"');
      expect(json(views[0])).toContain('Esto se fijó al crear la campaña');
      expect(json(views[1])).toContain('ya finalizó');
    }
  });

  it('the summaries after a create and an edit, within the limits (snapshot)', () => {
    const c = campaignDetail({ name: LONG_NAME, template: HOSTILE });
    const created = campaignCreatedMessage(c, 'U1', t);
    const updated = campaignUpdatedMessage(
      c,
      'U1',
      Array.from({ length: 300 }, (_, i) => `field_${i}`),
      t,
    );
    for (const m of [created, updated]) {
      assertWithinMessageLimits(m);
      noLiveMarkup(m);
    }
    expect(campaignCreatedMessage(campaignDetail(), 'U1', t)).toMatchSnapshot();
    if (locale === 'es') {
      expect(created.text).toContain('creada');
      expect(json(created.blocks)).toContain('creó la campaña');
      expect(json(updated.blocks)).toContain('actualizó la campaña');
    }
  });

  it('who did what, the error reply with its buttons, and a success, within the limits', () => {
    const msgs = [
      lifecycleResultMessage(
        { userId: 'U1', action: 'pause', campaign: { id: 1, name: LONG_NAME, status: 'inactive' } },
        t,
      ),
      lifecycleResultMessage(
        { userId: 'U1', action: 'archive', campaign: { id: 1, name: LONG_NAME, status: 'active' } },
        t,
      ),
      errorMessage(
        {
          sentence: LONG_NAME,
          campaignId: 1,
          campaignName: LONG_NAME,
          currentStatus: 'ready',
          validTargets: ['activate', 'archive'],
        },
        t,
      ),
      successMessage(LONG_NAME, t),
    ];
    for (const m of msgs) {
      assertWithinMessageLimits(m);
      noLiveMarkup(m);
    }
  });
});

describe('Spanish wording', () => {
  it('who did what: past tense with the person first, and the status now', () => {
    const paused = lifecycleResultMessage(
      { userId: 'U1', action: 'pause', campaign: { id: 12, name: 'Renovaciones', status: 'inactive' } },
      es,
    );
    expect(paused.text).toBe('<@U1> pausó *Renovaciones* (#12). Ahora está ⏸ Inactiva.');
    const archived = lifecycleResultMessage(
      { userId: 'U1', action: 'archive', campaign: { id: 12, name: 'R', status: 'active', archived: true } },
      es,
    );
    expect(archived.text).toBe('<@U1> archivó *R* (#12). Su estado sigue siendo 🟢 Activa.');
    expect(json(paused.blocks)).toContain('"Ver"');
  });

  it('a refused move says the status and offers the possible moves', () => {
    const err = service({
      status: 409,
      key: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'inactive',
      action: 'activate',
      validTargets: ['resume', 'archive'],
    });
    expect(serviceErrorText(err, es)).toBe(
      'La campaña está inactiva (pausada), así que no se puede activar. Para reiniciar una campaña pausada, reanúdala. Puedes reanudarla o archivarla.',
    );
    const m = errorMessage(
      {
        sentence: serviceErrorText(err, es),
        campaignId: 12,
        currentStatus: 'inactive',
        validTargets: ['resume', 'archive'],
      },
      es,
    );
    const s = json(m.blocks);
    expect(s).toContain('La campaña #12 está ⏸ Inactiva.');
    expect(s).toContain('Lo que puedes hacer en su lugar:');
    expect(s).toContain('"⏯ Reanudar"');
  });

  it('service errors: a count, a name, the service’s own message kept as sent', () => {
    expect(serviceErrorText(service({ status: 429, retryAfterSeconds: 1 }), es)).toMatch(
      /inténtalo de nuevo en 1 segundo\.$/,
    );
    expect(serviceErrorText(service({ status: 429, retryAfterSeconds: 3 }), es)).toMatch(/en 3 segundos\.$/);
    expect(serviceErrorText(service({ status: 404, key: 'NOT_FOUND', subject: { what: 'campaign', id: 7 } }), es)).toBe(
      'No se encontró la campaña 7; puede que se haya eliminado o que el número sea incorrecto.',
    );
    expect(serviceErrorText(service({ status: 400, serviceMessage: 'name too long' }), es)).toBe(
      'El servicio de campañas rechazó la solicitud: name too long.',
    );
    expect(serviceErrorText(new Error('secret stack'), es)).not.toContain('secret');
  });

  it('validation errors under their fields', () => {
    const r = validateCreate(
      { name: '', retries: '9', agent_id_typed: 'nope', 'scheduling.days': ['mon'] },
      { directory: { agents: [] }, visible: new Set(['agent_id_typed']) },
      es,
    );
    expect(r.ok).toBe(false);
    const errors = (r as { errors: Record<string, string> }).errors;
    expect(errors).toMatchObject({
      integration_type: 'Elige el canal: llamada telefónica o WhatsApp.',
      name: 'Ponle un nombre a la campaña.',
      retries: 'Los reintentos deben estar entre 0 y 5 (escribiste 9).',
      'scheduling.mon.startTime': 'Lunes está marcado: dale una hora de inicio o desmarca Lunes.',
    });
    expect(errors.agent_id_typed).toMatch(/^"nope" no es un id de agente/);
    const c = campaignDetail();
    const fixed = fixedSettingsOf(c);
    const edit = validateEdit({ name: 'x', message_limit: '20000' }, fixed, {}, new Set(['name', 'message_limit']), es);
    expect((edit as { errors: Record<string, string> }).errors.message_limit).toBe(
      'El límite de mensajes debe estar entre 1 y 10,000 (escribiste 20000).',
    );
  });

  it('a service refusal of a field goes under it, in the form’s language', () => {
    const err = service({
      status: 404,
      key: 'AGENT_NOT_FOUND',
      field: 'agent_id',
      subject: { what: 'campaign', agentId: AGENT },
    });
    const mapped = mapServiceError(err, { agent_id_typed: AGENT }, new Set(['agent_id_typed']), es);
    expect(mapped.errors.agent_id_typed).toMatch(/^No se encontró el agente 7c9e6679/);
  });

  it('the audit channel line', () => {
    expect(
      auditLine({ userId: 'U1', action: 'pause', campaignId: 12, result: 'refused', detail: 'read-only user' }, es),
    ).toBe('🚫 <@U1> pausar campaña #12 — rechazado: read-only user');
    expect(auditLine({ userId: 'U1', action: `try agent ${HOSTILE}`, result: 'ok' }, en)).toBe(
      '✅ <@U1> try agent &lt;!channel&gt; &amp; &lt;@U1&gt; &lt;#C1&gt; &lt;https://evil.example|click&gt; — ok',
    );
  });
});

function service(init: Partial<OutreachErrorInit>): OutreachError {
  return new OutreachError({ kind: 'service', endpoint: 'POST /campaigns/{id}/activate', ...init });
}

describe('English service sentences are humanMessage’s, word for word', () => {
  const errors: OutreachError[] = [
    new OutreachError({ kind: 'network', endpoint: 'x', mayHaveBeenApplied: true }),
    new OutreachError({ kind: 'network', endpoint: 'x', mayHaveBeenApplied: false }),
    new OutreachError({ kind: 'timeout', endpoint: 'x', mayHaveBeenApplied: true }),
    new OutreachError({ kind: 'timeout', endpoint: 'x' }),
    new OutreachError({ kind: 'protocol', endpoint: 'x' }),
    service({
      status: 409,
      key: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'inactive',
      action: 'activate',
      validTargets: ['resume', 'archive'],
    }),
    service({ status: 409, key: 'INVALID_STATUS_TRANSITION', currentStatus: 'weird', validTargets: ['somewhere'] }),
    service({ status: 409, key: 'INVALID_STATUS_TRANSITION' }),
    service({ status: 402, key: 'BILLING_LIMIT_REACHED', action: 'resume' }),
    service({ status: 402, key: 'BILLING_LIMIT_REACHED' }),
    service({ status: 400, key: 'IMMUTABLE_FIELD', field: 'agent_id' }),
    service({ status: 404, key: 'NOT_FOUND', subject: { what: 'contact', id: 5, campaignId: 3 } }),
    service({ status: 404, key: 'NOT_FOUND', subject: { what: 'call' } }),
    service({ status: 404, key: 'CONTACT_NOT_FOUND' }),
    service({ status: 404, key: 'AGENT_NOT_FOUND', subject: { what: 'campaign', agentId: 'a1' } }),
    service({ status: 404, key: 'INTEGRATION_NOT_FOUND', subject: { what: 'campaign', integrationId: 'i1' } }),
    service({ status: 409, key: 'CONTACT_NOT_DELETABLE', subject: { what: 'contact', id: 9 } }),
    service({ status: 429, key: 'RATE_LIMITED', retryAfterSeconds: 1.2 }),
    service({ status: 429, retryAfterSeconds: 1 }),
    service({ status: 400, key: 'INVALID_REQUEST', serviceMessage: 'bad name.', field: 'name' }),
    service({ status: 400, key: 'INVALID_REQUEST', field: 'retries' }),
    service({ status: 400, key: 'INVALID_REQUEST' }),
    service({ status: 400, fieldErrors: { contact: ['Invalid phone.'], non_field_errors: [] } }),
    service({ status: 401 }),
    service({ status: 403 }),
    service({ status: 404, subject: { what: 'end user', id: 'eu1' } }),
    service({ status: 503 }),
    service({ status: 500 }),
    service({ status: 409, serviceMessage: 'busy' }),
    service({ status: 409 }),
    service({ status: 422, serviceMessage: 'nope' }),
    service({ status: 418 }),
    service({ status: 302 }),
    ...(
      [
        'FORBIDDEN',
        'SERVER_ERROR',
        'INVALID_STATUS',
        'UNKNOWN_ACTION',
        'INVALID_INTEGRATION_TYPE',
        'INVALID_FILTER_TAG',
        'INVALID_PHONE_NUMBER',
        'MISSING_CONTACT',
        'CAMPAIGN_FINISHED',
        'CYCLES_NOT_ENABLED',
        'SCHEDULED_MODE_ONLY',
      ] as const
    ).map((key) => service({ status: 400, key })),
  ];
  it.each(errors.map((e) => [e.message, e] as const))('%s', (_name, err) => {
    expect(serviceErrorText(err, en)).toBe(humanMessage(err));
  });
  it('anything else', () => {
    const abort = Object.assign(new Error('x'), { name: 'AbortError' });
    for (const e of [abort, new Error('boom'), 'text']) expect(serviceErrorText(e, en)).toBe(humanMessage(e));
  });
});
