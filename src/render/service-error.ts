/**
 * The sentence about a failure, from the catalogs: in a person's language for them (`serviceErrorText`), in English
 * for the logs and the audit trail (`englishErrorText`). The one place that words an error of the service client
 * (src/outreach/errors.ts holds only its codes and data). Plain text (not mrkdwn): whoever shows it escapes it
 * (`errorMessage`, `tmd`), since it may quote the service's own message.
 */
import type { MessageKey, Translator } from '../i18n/translator.js';
import {
  formatFieldErrors,
  OutreachError,
  OutreachInputError,
  UNAVAILABLE_STATUSES,
  type ErrorSubject,
} from '../outreach/errors.js';
import { ERROR_KEYS, type ErrorKey, type LifecycleAction } from '../outreach/schemas.js';
import { actionForTarget } from '../outreach/unspecified.js';
import { ENGLISH } from './format.js';

/** One sentence per error key of the campaign envelope, used when no more specific wording applies. */
export const ERROR_KEY_SENTENCES: Record<ErrorKey, MessageKey> = {
  FORBIDDEN: 'serviceError.forbidden',
  NOT_FOUND: 'serviceError.notFound',
  RATE_LIMITED: 'serviceError.rateLimited',
  SERVER_ERROR: 'serviceError.serverError',
  INVALID_REQUEST: 'serviceError.invalidRequest',
  INVALID_STATUS: 'serviceError.invalidStatus',
  IMMUTABLE_FIELD: 'serviceError.immutableField',
  UNKNOWN_ACTION: 'serviceError.unknownAction',
  AGENT_NOT_FOUND: 'serviceError.agentNotFound',
  INTEGRATION_NOT_FOUND: 'serviceError.integrationNotFound',
  INVALID_INTEGRATION_TYPE: 'serviceError.invalidIntegrationType',
  INVALID_FILTER_TAG: 'serviceError.invalidFilterTag',
  INVALID_PHONE_NUMBER: 'serviceError.invalidPhoneNumber',
  MISSING_CONTACT: 'serviceError.missingContact',
  CONTACT_NOT_FOUND: 'serviceError.contactNotFound',
  CONTACT_NOT_DELETABLE: 'serviceError.contactNotDeletable',
  CAMPAIGN_FINISHED: 'serviceError.campaignFinished',
  CYCLES_NOT_ENABLED: 'serviceError.cyclesNotEnabled',
  SCHEDULED_MODE_ONLY: 'serviceError.scheduledModeOnly',
  INVALID_STATUS_TRANSITION: 'serviceError.invalidStatusTransition',
  BILLING_LIMIT_REACHED: 'serviceError.billingLimitReached',
};

/** "activated" / "activarla": what a campaign can still be (after "It can be" / "Puedes"). */
const CAN_BE: Record<LifecycleAction, MessageKey> = {
  activate: 'serviceError.transition.activated',
  pause: 'serviceError.transition.paused',
  resume: 'serviceError.transition.resumed',
  archive: 'serviceError.transition.archived',
};

const KNOWN_KEYS: ReadonlySet<string> = new Set(ERROR_KEYS);

/** `none` when a value is absent: the catalog's selects read it as "leave this part out". */
const orNone = (v: string | number | undefined): string => (v === undefined ? 'none' : String(v));

/** "Campaign 12", "Contact 5 of campaign 12", …; undefined when the request named nothing. */
function subjectName(s: ErrorSubject | undefined, t: Translator): string | undefined {
  if (!s) return undefined;
  switch (s.what) {
    case 'campaign':
    case 'campaigns':
    case 'calls': {
      const id = s.campaignId ?? s.id;
      return id !== undefined ? t.t('serviceError.subject.campaign', { id: String(id) }) : undefined;
    }
    case 'contacts':
      return s.campaignId !== undefined
        ? t.t('serviceError.subject.campaign', { id: String(s.campaignId) })
        : undefined;
    case 'contact':
      return t.t('serviceError.subject.contact', { id: orNone(s.id), campaign: orNone(s.campaignId) });
    case 'call':
      return t.t('serviceError.subject.call', { id: orNone(s.id) });
    case 'thread':
    case 'message':
      return t.t('serviceError.subject.thread', { id: orNone(s.id) });
    case 'end user':
      return t.t('serviceError.subject.endUser', { id: orNone(s.id) });
  }
}

/**
 * One clear sentence for a person about any error thrown by the service client (or anything else: unknown errors
 * get a neutral sentence, never their raw message, which could hold anything).
 */
export function serviceErrorText(err: unknown, t: Translator): string {
  // Input refused before anything was sent: written for people by the client (English only; the commands and forms
  // check the same things first, in the person's language).
  if (err instanceof OutreachInputError) return err.message;
  if (!(err instanceof OutreachError)) {
    if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
      return t.t('serviceError.cancelled');
    }
    return t.t('serviceError.unexpected');
  }
  switch (err.kind) {
    case 'network':
      return t.t(err.mayHaveBeenApplied ? 'serviceError.network.maybeApplied' : 'serviceError.network.unreachable');
    case 'timeout':
      return t.t(err.mayHaveBeenApplied ? 'serviceError.timeout.maybeApplied' : 'serviceError.timeout.unreachable');
    case 'protocol':
      return t.t('serviceError.protocol');
    case 'service':
      return serviceSentence(err, t);
  }
}

/** The same sentence in English, for the logs and the audit trail (read by operators, whatever the person's language). */
export function englishErrorText(err: unknown): string {
  return serviceErrorText(err, ENGLISH);
}

function serviceSentence(err: OutreachError, t: Translator): string {
  const status = err.status ?? 0;
  const name = subjectName(err.subject, t);
  const notFound = () => (name ? t.t('serviceError.notFound.named', { name }) : t.t(ERROR_KEY_SENTENCES.NOT_FOUND));

  if (err.key && KNOWN_KEYS.has(err.key)) {
    const k = err.key as ErrorKey;
    switch (k) {
      case 'INVALID_STATUS_TRANSITION':
        return transitionSentence(err, t);
      case 'BILLING_LIMIT_REACHED':
        return err.action
          ? t.t('serviceError.billingLimitReached.action', { action: err.action })
          : t.t(ERROR_KEY_SENTENCES[k]);
      case 'IMMUTABLE_FIELD':
        return err.field ? t.t('serviceError.immutableField.named', { field: err.field }) : t.t(ERROR_KEY_SENTENCES[k]);
      case 'NOT_FOUND':
      case 'CONTACT_NOT_FOUND':
        return name ? t.t('serviceError.notFound.named', { name }) : t.t(ERROR_KEY_SENTENCES[k]);
      case 'AGENT_NOT_FOUND':
        return err.subject?.agentId
          ? t.t('serviceError.agentNotFound.named', { agent: err.subject.agentId })
          : t.t(ERROR_KEY_SENTENCES[k]);
      case 'INTEGRATION_NOT_FOUND':
        return err.subject?.integrationId
          ? t.t('serviceError.integrationNotFound.named', { integration: err.subject.integrationId })
          : t.t(ERROR_KEY_SENTENCES[k]);
      case 'CONTACT_NOT_DELETABLE':
        return err.subject?.what === 'contact' && err.subject.id !== undefined
          ? t.t('serviceError.contactNotDeletable.named', { contact: String(err.subject.id) })
          : t.t(ERROR_KEY_SENTENCES[k]);
      case 'RATE_LIMITED':
        return rateLimitedSentence(err, t);
      case 'INVALID_REQUEST':
        return err.serviceMessage || err.fieldErrors || err.field
          ? t.t('serviceError.refused.details', { details: details(err, t) })
          : t.t(ERROR_KEY_SENTENCES[k]);
      default:
        return t.t(ERROR_KEY_SENTENCES[k]);
    }
  }

  if (err.fieldErrors) return t.t('serviceError.refusedInput', { details: details(err, t) });
  if (status === 401) return t.t('serviceError.badApiKey');
  if (status === 403) return t.t(ERROR_KEY_SENTENCES.FORBIDDEN);
  if (status === 404) return notFound();
  if (status === 429) return rateLimitedSentence(err, t);
  if (status === 402) return t.t(ERROR_KEY_SENTENCES.BILLING_LIMIT_REACHED);
  if (status >= 500) {
    return UNAVAILABLE_STATUSES.has(status) ? t.t('serviceError.unavailable') : t.t(ERROR_KEY_SENTENCES.SERVER_ERROR);
  }
  if (status === 409) {
    return err.serviceMessage
      ? t.t('serviceError.conflict.details', { details: err.serviceMessage })
      : t.t('serviceError.conflict');
  }
  if (status >= 400) {
    return err.serviceMessage
      ? t.t('serviceError.refused.details', { details: err.serviceMessage })
      : t.t(ERROR_KEY_SENTENCES.INVALID_REQUEST);
  }
  return t.t('serviceError.unexpectedAnswer');
}

/** "The campaign is inactive, so it can't be activated. To restart a paused campaign, resume it. It can be …". */
function transitionSentence(err: OutreachError, t: Translator): string {
  const sentences = [
    err.currentStatus
      ? t.t('serviceError.transition.now', { status: err.currentStatus, action: err.action ?? 'none' })
      : t.t(ERROR_KEY_SENTENCES.INVALID_STATUS_TRANSITION),
  ];
  if (err.action === 'activate' && err.currentStatus === 'inactive') {
    sentences.push(t.t('serviceError.transition.resumeHint'));
  }
  const targets = err.validTargets ?? [];
  if (targets.length) {
    const actions = targets.map((target) => actionForTarget(target, err.currentStatus));
    if (actions.every((a): a is LifecycleAction => a !== undefined)) {
      const words = [...new Set(actions)].map((a) => t.t(CAN_BE[a]));
      sentences.push(t.t('serviceError.transition.canBe', { actions: t.list(words, 'or') }));
    } else {
      sentences.push(t.t('serviceError.transition.canGoTo', { targets: targets.join(', ') }));
    }
  }
  return sentences.join(' ');
}

function rateLimitedSentence(err: OutreachError, t: Translator): string {
  const s = err.retryAfterSeconds;
  return s !== undefined && s > 0
    ? t.t('serviceError.rateLimited.wait', { seconds: Math.ceil(s) })
    : t.t(ERROR_KEY_SENTENCES.RATE_LIMITED);
}

/** The service's own words about what it refused (its message, its fields), as it sent them. */
function details(err: OutreachError, t: Translator): string {
  const parts: string[] = [];
  if (err.serviceMessage) {
    const message = err.serviceMessage.replace(/[.\s]+$/, '');
    // The envelope's `field` says which field; name it unless the message already does.
    parts.push(err.field && !message.includes(err.field) ? `${err.field}: ${message}` : message);
  } else if (err.field) parts.push(t.t('serviceError.details.invalidValue', { field: err.field }));
  if (err.fieldErrors) parts.push(formatFieldErrors(err.fieldErrors).replace(/[.\s]+$/, ''));
  return parts.join('; ');
}
