/** The page's side of the protocol (src/playground/api.ts): loading a person's state, the live events, requests. */
import { API_PREFIX, FILES_PATH, type PageEvent, type PageFile, type PageRequests, type PageState } from '../api.js';

export interface Answer {
  ok: boolean;
  error?: string;
  [key: string]: unknown;
}

export async function loadState(as: string | undefined): Promise<PageState> {
  const query = as ? `?as=${encodeURIComponent(as)}` : '';
  const response = await fetch(`${API_PREFIX}state${query}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the playground answered ${response.status} to state`);
  return (await response.json()) as PageState;
}

/** One request of the page; a failure to reach the server is answered like a refusal, never thrown. */
export async function send<P extends keyof PageRequests>(path: P, body: PageRequests[P]): Promise<Answer> {
  try {
    const response = await fetch(`${API_PREFIX}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({ ok: false }))) as Answer;
    if (!response.ok && answer.ok !== false) return { ok: false, error: `HTTP ${response.status}` };
    return answer;
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Hosts a file chosen from disk as a Slack file, for a file_input's value. */
export async function uploadFile(as: string, file: File): Promise<PageFile> {
  const query = `?as=${encodeURIComponent(as)}&name=${encodeURIComponent(file.name)}`;
  const response = await fetch(`${FILES_PATH}${query}`, {
    method: 'POST',
    headers: { 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  const answer = (await response.json().catch(() => ({ ok: false }))) as Answer & { file?: PageFile };
  if (!answer.ok || !answer.file) throw new Error(answer.error ?? `HTTP ${response.status}`);
  return answer.file;
}

/**
 * The live events of one person. `onReconnect` runs when the stream came back after a break: what was sent meanwhile
 * is lost, so the page loads its state again.
 */
export function subscribe(as: string, onEvent: (event: PageEvent) => void, onReconnect: () => void): () => void {
  const source = new EventSource(`${API_PREFIX}events?as=${encodeURIComponent(as)}`);
  let broken = false;
  source.addEventListener('message', (message: MessageEvent<string>) => {
    try {
      onEvent(JSON.parse(message.data) as PageEvent);
    } catch (error) {
      console.error('playground: an event the page could not read', error);
    }
  });
  source.addEventListener('error', () => {
    broken = true;
  });
  source.addEventListener('open', () => {
    if (broken) onReconnect();
    broken = false;
  });
  return () => source.close();
}
