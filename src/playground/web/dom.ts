/**
 * The page's one renderer: every element is made here, and every string becomes a text node. Nothing of the page
 * parses markup (lint forbids innerHTML and the like in src/playground/web/), so text from outside (end users, the
 * agent, file names, campaign names) is always shown literally.
 */

export type Child = Node | string | number | null | undefined | false | Child[];

type Listeners = { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };

export interface Props {
  class?: string | (string | false | undefined)[];
  /** Attributes; `on…` handlers, `style` and URLs are refused here (URLs go through `href`/`src` below). */
  attrs?: Record<string, string | number | boolean | undefined>;
  /** A link's target, kept only for http(s), mailto and same-origin paths. */
  href?: string;
  /** An image's source, kept only for http(s) and same-origin paths. */
  src?: string;
  on?: Listeners;
}

const REFUSED_ATTRIBUTE = /^(on|style$|srcdoc$|href$|src$|formaction$|action$|xlink:href$)/i;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  const classes = Array.isArray(props.class) ? props.class.filter(Boolean).join(' ') : props.class;
  if (classes) element.className = classes;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (REFUSED_ATTRIBUTE.test(name)) throw new Error(`attribute ${name} is not set through attrs`);
    element.setAttribute(name, value === true ? '' : String(value));
  }
  if (props.href !== undefined) {
    const url = safeUrl(props.href, LINK_PROTOCOLS);
    if (url) element.setAttribute('href', url);
  }
  if (props.src !== undefined) {
    const url = safeUrl(props.src, IMAGE_PROTOCOLS);
    if (url) element.setAttribute('src', url);
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(type, listener as EventListener);
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(visible(String(child))));
  }
}

/** Bidi embedding, override and isolate controls, which would reorder what is shown around them. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Text as it is: a bidi control is shown as its code point (⟦U+202E⟧) instead of turning the text around. */
function visible(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase()}⟧`);
}

const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'];
const IMAGE_PROTOCOLS = ['http:', 'https:'];

/** The URL if it is one the page may follow or load (relative ones resolve against the page), else undefined. */
function safeUrl(raw: string, protocols: string[] = LINK_PROTOCOLS): string | undefined {
  try {
    const url = new URL(raw.trim(), document.baseURI);
    return protocols.includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link that opens outside the page, or its text alone when the URL is not one to follow. */
export function link(url: string, ...children: Child[]): HTMLElement {
  const label = children.length ? children : [url];
  if (!safeUrl(url)) return h('span', { class: 'unsafe-link', attrs: { title: url } }, ...label);
  return h('a', { href: url, attrs: { target: '_blank', rel: 'noopener noreferrer' } }, ...label);
}

/**
 * Puts `nodes` in `parent` in that order, moving only what is out of place: an element left where it was keeps its
 * focus and scroll, so live updates do not throw a keyboard user out of what they were doing.
 */
export function reconcile(parent: Element, nodes: Element[]): void {
  nodes.forEach((node, index) => {
    const current = parent.children[index];
    if (current !== node) parent.insertBefore(node, current ?? null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild?.remove();
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let idCounter = 0;
/** A page-unique id, for labels and aria references. */
export function uid(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}
