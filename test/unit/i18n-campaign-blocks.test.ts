/**
 * The campaign detail, the campaign form and its views and summaries, the who-did-what lines, error replies and the
 * service's sentences, in both languages: within Slack's limits with hostile and long input, Spanish where Spanish
 * is asked for (snapshots), English exactly as before (the service sentences word for word).
 */
import { LOCALES, type Locale } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { OutreachError, type OutreachErrorInit } from '../../src/outreach/errors.js';
import { campaignDetailMessage } from '../../src/render/campaign-detail.js';
import {
  campaignFormView,
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
import { campaignCreatedMessage, campaignUpdatedMessage } from '../../src/render/feedback.js';
import { errorMessage, lifecycleResultMessage, successMessage } from '../../src/render/feedback.js';
import { serviceErrorText } from '../../src/render/service-error.js';
import type { SlackMessage, View } from '../../src/render/types.js';
import { auditLine } from '../../src/slack/audit.js';
import { editFormView } from '../../src/slack/campaign-form/open.js';
import { mapServiceError, validateCreate, validateEdit } from '../../src/slack/campaign-form/state.js';
import { fixedSettingsOf } from '../../src/slack/campaign-form/open.js';
import { validateView } from '../../src/emulator/block-kit-limits.js';
import { campaignDetail, HOSTILE } from '../support/blocks-fixtures.js';
import { allTexts, assertWithinMessageLimits } from '../support/message-checks.js';

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

  it('a refused field the service sent without a message gets the whole sentence, in the form’s language', () => {
    const err = service({ status: 400, key: 'INVALID_REQUEST', field: 'retries' });
    const visible = new Set(['retries']);
    expect(mapServiceError(err, {}, visible, es).errors.retries).toBe(
      'El servicio de campañas rechazó la solicitud: el valor de retries no es válido.',
    );
    expect(mapServiceError(err, {}, visible, en).errors.retries).toBe(
      'The outreach service refused the request: the value of retries is not valid.',
    );
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

describe('English service sentences, word for word as they were written before the catalogs', () => {
  /** Keys whose sentence does not depend on the rest of the error, and that sentence. */
  const KEY_SENTENCES: Record<string, string> = {
    FORBIDDEN:
      "The outreach service refused this action for the app's API key (forbidden); ask an admin to check the key's permissions.",
    SERVER_ERROR: 'The outreach service had an internal error; try again in a moment.',
    INVALID_STATUS: "That status isn't valid here; pick one of the statuses offered.",
    UNKNOWN_ACTION: "The outreach service doesn't know that campaign action; use activate, pause, resume or archive.",
    INVALID_INTEGRATION_TYPE:
      "That channel isn't supported for this integration; choose phone_call or whatsapp to match the integration.",
    INVALID_FILTER_TAG: "One of the cycle filter tags isn't a known thread tag; remove it or pick an existing tag.",
    INVALID_PHONE_NUMBER: "The phone number isn't valid; write it with its country code, for example +52 55 1234 5678.",
    MISSING_CONTACT: 'The phone number is missing; every contact needs one.',
    CAMPAIGN_FINISHED: 'The campaign has finished, so it can no longer be changed.',
    CYCLES_NOT_ENABLED:
      "Cycles aren't enabled on this campaign, and they can only be turned on when a campaign is created.",
    SCHEDULED_MODE_ONLY:
      'The cycle schedule and its start and end dates only apply when the cycle mode is scheduled; remove them or switch the mode when creating the campaign.',
  };
  const cases: [OutreachError, string][] = [
    [
      new OutreachError({ kind: 'network', endpoint: 'x', mayHaveBeenApplied: true }),
      'The connection to the outreach service broke while it was handling the request, so it may or may not have been applied; check before trying again.',
    ],
    [
      new OutreachError({ kind: 'network', endpoint: 'x', mayHaveBeenApplied: false }),
      "The outreach service can't be reached right now; nothing was changed.",
    ],
    [
      new OutreachError({ kind: 'timeout', endpoint: 'x', mayHaveBeenApplied: true }),
      'The outreach service took too long to answer, so the change may or may not have been applied; check before trying again.',
    ],
    [
      new OutreachError({ kind: 'timeout', endpoint: 'x' }),
      "The outreach service can't be reached right now (it did not answer in time); nothing was changed.",
    ],
    [
      new OutreachError({ kind: 'protocol', endpoint: 'x' }),
      "The outreach service sent an answer this app doesn't understand; the details are in the app's logs.",
    ],
    [
      service({
        status: 409,
        key: 'INVALID_STATUS_TRANSITION',
        currentStatus: 'inactive',
        action: 'activate',
        validTargets: ['resume', 'archive'],
      }),
      "The campaign is inactive, so it can't be activated. To restart a paused campaign, resume it. It can be resumed or archived.",
    ],
    [
      service({ status: 409, key: 'INVALID_STATUS_TRANSITION', currentStatus: 'weird', validTargets: ['somewhere'] }),
      "The campaign is weird, so it can't do that. It can go to: somewhere.",
    ],
    [
      service({ status: 409, key: 'INVALID_STATUS_TRANSITION' }),
      "The campaign's current status doesn't allow that action.",
    ],
    [
      service({ status: 402, key: 'BILLING_LIMIT_REACHED', action: 'resume' }),
      "The organization's plan limit has been reached, so the campaign can't be resumed; ask an admin to raise the plan or pause another campaign.",
    ],
    [
      service({ status: 402, key: 'BILLING_LIMIT_REACHED' }),
      "The organization's plan limit has been reached, so no more campaigns can run; ask an admin to raise the plan or pause another campaign.",
    ],
    [
      service({ status: 400, key: 'IMMUTABLE_FIELD', field: 'agent_id' }),
      'The setting "agent_id" can\'t be changed once the campaign exists; create a new campaign to change it.',
    ],
    [
      service({ status: 404, key: 'NOT_FOUND', subject: { what: 'contact', id: 5, campaignId: 3 } }),
      'Contact 5 of campaign 3 was not found; it may have been deleted, or the id may be wrong.',
    ],
    [
      service({ status: 404, key: 'NOT_FOUND', subject: { what: 'call' } }),
      'Call was not found; it may have been deleted, or the id may be wrong.',
    ],
    [
      service({ status: 404, key: 'CONTACT_NOT_FOUND' }),
      'That contact was not found in the campaign; it may have been deleted.',
    ],
    [
      service({ status: 404, key: 'AGENT_NOT_FOUND', subject: { what: 'campaign', agentId: 'a1' } }),
      "Agent a1 was not found; check that it is the agent's public id and that it belongs to this organization.",
    ],
    [
      service({ status: 404, key: 'INTEGRATION_NOT_FOUND', subject: { what: 'campaign', integrationId: 'i1' } }),
      'Integration i1 was not found for that agent; pick an integration that belongs to the chosen agent.',
    ],
    [
      service({ status: 409, key: 'CONTACT_NOT_DELETABLE', subject: { what: 'contact', id: 9 } }),
      "Contact 9 can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.",
    ],
    [
      service({ status: 429, key: 'RATE_LIMITED', retryAfterSeconds: 1.2 }),
      'The outreach service is receiving too many requests right now; try again in 2 seconds.',
    ],
    [
      service({ status: 429, retryAfterSeconds: 1 }),
      'The outreach service is receiving too many requests right now; try again in 1 second.',
    ],
    [
      service({ status: 400, key: 'INVALID_REQUEST', serviceMessage: 'bad name.', field: 'name' }),
      'The outreach service refused the request: bad name.',
    ],
    [
      service({ status: 400, key: 'INVALID_REQUEST', field: 'retries' }),
      'The outreach service refused the request: the value of retries is not valid.',
    ],
    [
      service({ status: 400, key: 'INVALID_REQUEST' }),
      'The outreach service refused the request as invalid; check the values and try again.',
    ],
    [
      service({ status: 400, fieldErrors: { contact: ['Invalid phone.'], non_field_errors: [] } }),
      'The outreach service refused the input: contact: Invalid phone.',
    ],
    [service({ status: 401 }), 'The outreach service refused the API key; ask an admin to check OUTREACH_API_KEY.'],
    [
      service({ status: 403 }),
      "The outreach service refused this action for the app's API key (forbidden); ask an admin to check the key's permissions.",
    ],
    [
      service({ status: 404, subject: { what: 'end user', id: 'eu1' } }),
      'End user eu1 was not found; it may have been deleted, or the id may be wrong.',
    ],
    [service({ status: 503 }), 'The outreach service is temporarily unavailable; try again in a few minutes.'],
    [service({ status: 500 }), 'The outreach service had an internal error; try again in a moment.'],
    [
      service({ status: 409, serviceMessage: 'busy' }),
      'The outreach service refused the change because of the current state: busy.',
    ],
    [
      service({ status: 409 }),
      "The outreach service refused the change because of the item's current state; refresh and try again.",
    ],
    [service({ status: 422, serviceMessage: 'nope' }), 'The outreach service refused the request: nope.'],
    [service({ status: 418 }), 'The outreach service refused the request as invalid; check the values and try again.'],
    [
      service({ status: 302 }),
      "The outreach service answered in an unexpected way; the details are in the app's logs.",
    ],
    ...Object.entries(KEY_SENTENCES).map(
      ([key, sentence]) => [service({ status: 400, key }), sentence] as [OutreachError, string],
    ),
  ];
  it.each(cases.map(([err, sentence]) => [err.message, err, sentence] as const))('%s', (_name, err, sentence) => {
    expect(serviceErrorText(err, en)).toBe(sentence);
  });
  it('anything else', () => {
    const abort = Object.assign(new Error('x'), { name: 'AbortError' });
    expect(serviceErrorText(abort, en)).toBe('The request was cancelled before the outreach service answered.');
    for (const e of [new Error('boom'), 'text'])
      expect(serviceErrorText(e, en)).toBe("Something unexpected went wrong; the details are in the app's logs.");
  });
});
