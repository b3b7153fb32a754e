/**
 * An independent check of a message against Block Kit's limits (docs/slack-platform-notes.md §1) and our
 * escaping rule. It does not use the builders' own LIMITS so that a wrong constant there is caught here: it uses the
 * fake Slack's, the one other copy of Slack's limits.
 */
import { LIMITS } from '../../src/emulator/block-kit-limits.js';

type Json = Record<string, unknown>;

/** The fake Slack's copy of the limits (src/emulator/block-kit-limits.ts), not the builders' own `LIMITS`. */
const MAX = {
  ...LIMITS,
  field: LIMITS.sectionField,
  overflowOptions: LIMITS.overflowOptionsMax,
  /** The fallback `text` is also what chat.update takes, which refuses more than this. */
  fallback: LIMITS.chatUpdateText,
};

/**
 * `<…>` sequences allowed in mrkdwn we send: user mentions only. Anything else (`<!channel>`, `<#C1>`, links) can
 * only come from unescaped outside text in these builders.
 */
const ALLOWED_ANGLE = /^<@[UW][A-Z0-9]+>$/;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function checkMrkdwnSafety(where: string, text: string, problems: string[]): void {
  for (const m of text.matchAll(/<[^>]*>?/g)) {
    if (!ALLOWED_ANGLE.test(m[0])) problems.push(`${where}: unescaped <…> sequence ${JSON.stringify(m[0])}`);
  }
  // A bare & must start an entity.
  for (const m of text.matchAll(/&(?!amp;|lt;|gt;)/g)) problems.push(`${where}: bare & at ${m.index}`);
}

function checkText(where: string, t: unknown, max: number, problems: string[], plainOnly = false): void {
  if (!t || typeof t !== 'object') {
    problems.push(`${where}: missing text object`);
    return;
  }
  const o = t as Json;
  const text = str(o.text);
  if (o.type !== 'plain_text' && o.type !== 'mrkdwn') problems.push(`${where}: bad text type ${String(o.type)}`);
  if (plainOnly && o.type !== 'plain_text') problems.push(`${where}: must be plain_text`);
  if (text === undefined || text.trim().length === 0) problems.push(`${where}: empty text`);
  else if (text.length > max) problems.push(`${where}: text ${text.length} > ${max}`);
  if (text !== undefined && o.type === 'mrkdwn') checkMrkdwnSafety(where, text, problems);
}

function checkConfirm(where: string, c: unknown, problems: string[]): void {
  if (c === undefined) return;
  const o = c as Json;
  if (o.title) checkText(`${where}.title`, o.title, MAX.confirmTitle, problems, true);
  checkText(`${where}.text`, o.text, MAX.confirmText, problems);
  if (o.confirm) checkText(`${where}.confirm`, o.confirm, MAX.confirmButton, problems, true);
  if (o.deny) checkText(`${where}.deny`, o.deny, MAX.confirmButton, problems, true);
}

function checkElement(where: string, e: Json, problems: string[]): void {
  const actionId = str(e.action_id);
  if (actionId !== undefined && actionId.length > MAX.actionId) problems.push(`${where}: action_id too long`);
  checkConfirm(`${where}.confirm`, e.confirm, problems);
  if (e.type === 'button') {
    checkText(`${where}.text`, e.text, MAX.buttonText, problems, true);
    const value = str(e.value);
    if (value !== undefined && value.length > MAX.buttonValue) {
      problems.push(`${where}: button value ${value.length} > ${MAX.buttonValue}`);
    }
  } else if (e.type === 'overflow') {
    const options = (e.options as Json[] | undefined) ?? [];
    if (options.length < 1 || options.length > MAX.overflowOptions) {
      problems.push(`${where}: ${options.length} overflow options`);
    }
    options.forEach((o, i) => {
      checkText(`${where}.options[${i}].text`, o.text, MAX.optionText, problems, true);
      const v = str(o.value);
      if (v !== undefined && v.length > MAX.optionValue) problems.push(`${where}.options[${i}]: value too long`);
    });
  } else {
    problems.push(`${where}: element type ${String(e.type)} not checked by this helper`);
  }
}

/** Every problem found; empty when the message is within limits. */
export function messageLimitProblems(
  message: { text?: string; blocks: unknown[] },
  surface: 'message' | 'view' = 'message',
): string[] {
  const problems: string[] = [];
  const maxBlocks = surface === 'message' ? MAX.messageBlocks : MAX.viewBlocks;
  if (message.blocks.length === 0) problems.push('no blocks');
  if (message.blocks.length > maxBlocks) problems.push(`${message.blocks.length} blocks > ${maxBlocks}`);
  if (surface === 'message') {
    if (!message.text || message.text.trim() === '') problems.push('no fallback text');
    else {
      if (message.text.length > MAX.fallback) problems.push(`fallback text ${message.text.length} > ${MAX.fallback}`);
      checkMrkdwnSafety('text', message.text, problems);
    }
  }
  const blockIds = new Set<string>();
  message.blocks.forEach((raw, i) => {
    const b = raw as Json;
    const where = `blocks[${i}](${String(b.type)})`;
    const blockId = str(b.block_id);
    if (blockId !== undefined) {
      if (blockId.length > MAX.blockId) problems.push(`${where}: block_id too long`);
      if (blockIds.has(blockId)) problems.push(`${where}: duplicate block_id ${blockId}`);
      blockIds.add(blockId);
    }
    switch (b.type) {
      case 'header':
        checkText(`${where}.text`, b.text, MAX.header, problems, true);
        break;
      case 'section': {
        if (b.text === undefined && b.fields === undefined) problems.push(`${where}: neither text nor fields`);
        if (b.text !== undefined) checkText(`${where}.text`, b.text, MAX.text, problems);
        if (b.fields !== undefined) {
          const fields = b.fields as unknown[];
          if (fields.length === 0 || fields.length > MAX.sectionFields) {
            problems.push(`${where}: ${fields.length} fields`);
          }
          fields.forEach((f, j) => checkText(`${where}.fields[${j}]`, f, MAX.field, problems));
        }
        if (b.accessory) checkElement(`${where}.accessory`, b.accessory as Json, problems);
        break;
      }
      case 'context': {
        const elements = (b.elements as Json[] | undefined) ?? [];
        if (elements.length === 0 || elements.length > MAX.contextElements) {
          problems.push(`${where}: ${elements.length} elements`);
        }
        elements.forEach((e, j) => checkText(`${where}.elements[${j}]`, e, MAX.text, problems));
        break;
      }
      case 'actions': {
        const elements = (b.elements as Json[] | undefined) ?? [];
        if (elements.length === 0 || elements.length > MAX.actionsElements) {
          problems.push(`${where}: ${elements.length} elements`);
        }
        const ids = new Set<string>();
        elements.forEach((e, j) => {
          const id = str(e.action_id);
          if (id !== undefined) {
            if (ids.has(id)) problems.push(`${where}: duplicate action_id ${id} in one block`);
            ids.add(id);
          }
          checkElement(`${where}.elements[${j}]`, e, problems);
        });
        break;
      }
      case 'divider':
        break;
      default:
        problems.push(`${where}: block type not checked by this helper`);
    }
  });
  return problems;
}

/** Fails the test with every problem listed. */
export function assertWithinMessageLimits(
  message: { text?: string; blocks: unknown[] },
  surface: 'message' | 'view' = 'message',
): void {
  const problems = messageLimitProblems(message, surface);
  if (problems.length) throw new Error(`Message breaks Block Kit limits:\n- ${problems.join('\n- ')}`);
}

/** Every string (mrkdwn and plain) in the message, for content assertions. */
export function allTexts(message: { text?: string; blocks: unknown[] }): string[] {
  const out: string[] = message.text ? [message.text] : [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Json;
      if ((o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string') out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(message.blocks);
  return out;
}

/** Every button/option value in the message. */
export function allValues(message: { blocks: unknown[] }): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Json;
      if (typeof o.value === 'string') out.push(o.value);
      Object.values(o).forEach(walk);
    }
  };
  walk(message.blocks);
  return out;
}
