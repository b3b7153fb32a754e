/** Pure Block Kit builders: data in, `{ text, blocks }` out; no I/O. See docs/messages.md for the style rules. */
export * from './types.js';
export * from './mrkdwn.js';
export * from './format.js';
export * from './schedule.js';
export * from './actionValues.js';
export * from './lifecycle.js';
export * from './paging.js';
export * from './campaignList.js';
export * from './campaignDetail.js';
export * from './contactsPage.js';
export * from './callsPage.js';
export * from './feedback.js';
