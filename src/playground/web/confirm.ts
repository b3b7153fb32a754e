/** Block Kit's confirmation dialog, as a modal <dialog>: Escape or the deny button says no. */
import type { Json } from '../api.js';
import { h } from './dom.js';
import type { Names } from './mrkdwn.js';
import { plainText, textObject } from './text.js';

export function confirmDialog(confirm: Json, names: Names): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = false;
    const close = (yes: boolean) => {
      answer = yes;
      dialog.close();
    };
    const danger = confirm.style === 'danger';
    const dialog = h(
      'dialog',
      { class: 'confirm', attrs: { 'aria-label': plainText(confirm.title) || 'Are you sure?' } },
      h('h2', {}, textObject(confirm.title, names)),
      h('div', { class: 'confirm-text' }, textObject(confirm.text, names)),
      h(
        'div',
        { class: 'confirm-buttons' },
        h('button', { class: 'btn', on: { click: () => close(false) } }, plainText(confirm.deny) || 'Cancel'),
        h(
          'button',
          { class: ['btn', danger ? 'btn-danger' : 'btn-primary'], on: { click: () => close(true) } },
          plainText(confirm.confirm) || 'Yes',
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}
