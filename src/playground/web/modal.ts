/**
 * The person's modals: the top of their stack drawn in a modal <dialog> (Escape closes it, as Slack's X does), its
 * inputs kept as Slack's `view.state.values`, the app's errors under their fields.
 */
import type { ElementValue, PageView, ViewValues } from '../api.js';
import { blocks } from './blocks.js';
import { send, uploadFile } from './client.js';
import { fill, h } from './dom.js';
import type { Model } from './model.js';
import { list, obj, plainText, type BlockContext, type Form } from './text.js';

/** The inputs of each view, by view id: kept while the app updates the view, as Slack keeps them. */
export class ViewForms {
  private values = new Map<string, ViewValues>();

  constructor(private readonly model: Model) {}

  /** A form for one drawing of a view: values read from the last drawing, written to this one's. */
  form(viewId: string, errors: () => Record<string, string>): { form: Form; values: () => ViewValues } {
    const previous = this.values.get(viewId) ?? {};
    const next: ViewValues = {};
    this.values.set(viewId, next);
    const as = () => this.model.state.me;
    const form: Form = {
      get: (blockId, actionId) => next[blockId]?.[actionId] ?? previous[blockId]?.[actionId],
      set: (blockId, actionId, value: ElementValue) => {
        next[blockId] = { ...next[blockId], [actionId]: value };
      },
      error: (blockId) => errors()[blockId],
      suggest: async (blockId, actionId, query) => {
        const answer = await send('suggestion', {
          as: as(),
          viewId,
          action_id: actionId,
          block_id: blockId,
          value: query,
        });
        if (!answer.ok) return [];
        const groups = list(answer.option_groups);
        return groups.length ? groups : list(answer.options);
      },
      upload: (file) => uploadFile(as(), file),
    };
    return { form, values: () => next };
  }

  forget(viewId: string): void {
    this.values.delete(viewId);
  }
}

export interface ModalSpace {
  model: Model;
  forms: ViewForms;
  context(source: { kind: 'view'; viewId: string }, form: Form, values: () => ViewValues): BlockContext;
  /** The modal went away on the page's side (closed); the server's own event may follow. */
  closed(viewId: string): void;
}

export class ModalLayer {
  private readonly dialog = h('dialog', { class: 'modal', attrs: { 'aria-modal': 'true' } });
  private drawn: PageView | undefined;
  private submitErrors = new Map<string, Record<string, string>>();

  constructor(private readonly space: ModalSpace) {
    this.dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      if (this.drawn) void this.close(this.drawn.id);
    });
    document.body.appendChild(this.dialog);
  }

  render(): void {
    const modals = this.space.model.state.modals;
    const top = modals[modals.length - 1];
    if (!top) {
      this.drawn = undefined;
      if (this.dialog.open) this.dialog.close();
      fill(this.dialog);
      return;
    }
    if (top === this.drawn) return;
    const isNew = top.id !== this.drawn?.id;
    this.drawn = top;
    this.draw(top, modals.length);
    if (!this.dialog.open) this.dialog.showModal();
    if (isNew) (this.dialog.querySelector('input, select, textarea, button.btn') as HTMLElement | null)?.focus();
  }

  private draw(page: PageView, depth: number): void {
    const view = page.view;
    const errors = () => ({ ...page.errors, ...this.submitErrors.get(page.id) });
    const { form, values } = this.space.forms.form(page.id, errors);
    const ctx = this.space.context({ kind: 'view', viewId: page.id }, form, values);
    const status = h('div', { class: 'modal-status', attrs: { role: 'alert' } });
    const submit = obj(view.submit);
    const title = plainText(view.title);
    this.dialog.setAttribute('aria-label', title);
    fill(
      this.dialog,
      h(
        'form',
        {
          class: 'modal-form',
          // The app checks the inputs, as Slack leaves it to the app: no browser checks in between.
          attrs: { novalidate: true },
          on: { submit: (event) => (event.preventDefault(), void this.submit(page, values, status)) },
        },
        h(
          'header',
          { class: 'modal-head' },
          h('h2', {}, title),
          depth > 1 ? h('span', { class: 'modal-depth' }, `${depth} of ${depth}`) : null,
          h(
            'button',
            {
              class: 'modal-x',
              attrs: { type: 'button', 'aria-label': 'Close' },
              on: { click: () => void this.close(page.id) },
            },
            '×',
          ),
        ),
        h('div', { class: 'modal-body' }, blocks(list(view.blocks), ctx)),
        status,
        h(
          'footer',
          { class: 'modal-foot' },
          h('button', { class: 'btn', attrs: { type: 'button' }, on: { click: () => void this.close(page.id) } }, [
            plainText(view.close) || 'Cancel',
          ]),
          submit ? h('button', { class: 'btn btn-primary', attrs: { type: 'submit' } }, plainText(submit)) : null,
        ),
      ),
    );
  }

  private async submit(page: PageView, values: () => ViewValues, status: HTMLElement): Promise<void> {
    const button = this.dialog.querySelector('button[type=submit]') as HTMLButtonElement | null;
    if (button) button.disabled = true;
    status.textContent = '';
    const answer = await send('view/submit', { as: this.space.model.state.me, viewId: page.id, values: values() });
    if (button) button.disabled = false;
    if (answer.ok) return;
    const errors = obj(answer.errors);
    if (errors) {
      this.submitErrors.set(page.id, Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)])));
      this.drawn = undefined; // Drawn again with the errors under their fields, the inputs as they were.
      this.render();
    } else status.textContent = `Not submitted: ${answer.error ?? 'unknown error'}`;
  }

  private async close(viewId: string): Promise<void> {
    const answer = await send('view/close', { as: this.space.model.state.me, viewId });
    if (!answer.ok) return;
    this.submitErrors.delete(viewId);
    this.space.forms.forget(viewId);
    this.space.closed(viewId);
  }
}
