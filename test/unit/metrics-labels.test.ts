/**
 * The metrics' own rules: labels only from route templates, Slack method names and Slack error codes (anything else
 * becomes `other`, so no id or secret can become a series), the limiter read at scrape time, and each AppMetrics on
 * its own registry.
 */
import { createMetrics, endpointLabel, slackErrorLabel, slackMethodLabel } from '../../src/metrics.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { parseExposition } from '../support/prom-text.js';

describe('labels', () => {
  it('keeps route templates and turns raw paths into other', () => {
    expect(endpointLabel('GET /campaigns/{id}')).toBe('GET /campaigns/{id}');
    expect(endpointLabel('POST /campaigns/{id}/start')).toBe('POST /campaigns/{id}/start');
    expect(endpointLabel('DELETE /campaigns/{id}/contacts/{contact_id}')).toBe(
      'DELETE /campaigns/{id}/contacts/{contact_id}',
    );
    expect(endpointLabel('GET /campaigns/42')).toBe('other');
    expect(endpointLabel('GET /thread/3f2a-9b')).toBe('other');
    expect(endpointLabel('GET /campaigns?api_key=sk_live_x')).toBe('other');
  });

  it('keeps Slack method names and error codes, nothing else', () => {
    expect(slackMethodLabel('chat.postMessage')).toBe('chat.postMessage');
    expect(slackMethodLabel('oauth.v2.access')).toBe('oauth.v2.access');
    expect(slackMethodLabel('files.getUploadURLExternal')).toBe('files.getUploadURLExternal');
    expect(slackMethodLabel('https://files.slack.com/upload/v1/ABC?token=xoxb-1')).toBe('other');
    expect(slackErrorLabel('channel_not_found')).toBe('channel_not_found');
    expect(slackErrorLabel('http_503')).toBe('http_503');
    expect(slackErrorLabel('An API error occurred: xoxb-123-abc')).toBe('other');
  });
});

describe('AppMetrics', () => {
  it('reads the limiter queue by priority when scraped', async () => {
    const limiter = new RateLimiter({ perSecond: 1, windowMs: 60_000 });
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.watchLimiter(limiter);
    try {
      const done = [0, 1, 2].map(() => limiter.schedule('bulk', () => Promise.resolve('ok')));
      void limiter.schedule('poller', () => Promise.resolve('ok')).catch(() => undefined);
      await done[0];
      const m = parseExposition(await metrics.text());
      expect(m.sum('outreach_slack_limiter_queued_requests', { priority: 'bulk' })).toBe(2);
      expect(m.sum('outreach_slack_limiter_queued_requests', { priority: 'poller' })).toBe(1);
      expect(m.sum('outreach_slack_limiter_queued_requests', { priority: 'interactive' })).toBe(0);
      for (const p of done.slice(1)) p.catch(() => undefined);
    } finally {
      await limiter.stop();
    }
  });

  it('counts a 429 of the service once as a limiter pause, and keeps apart the registries of two apps', async () => {
    const a = createMetrics({ defaultMetrics: false });
    const b = createMetrics({ defaultMetrics: false });
    a.serviceExchange({ endpoint: 'GET /campaigns', status: 429, seconds: 0.01 });
    a.serviceExchange({ endpoint: 'GET /campaigns', status: 200, seconds: 0.02 });
    a.serviceExchange({ endpoint: 'GET /campaigns/7', status: 'timeout', seconds: 20 });
    const ma = parseExposition(await a.text());
    expect(ma.sum('outreach_slack_limiter_rate_limited_total')).toBe(1);
    expect(ma.sum('outreach_slack_service_request_duration_seconds_count', { endpoint: 'GET /campaigns' })).toBe(2);
    expect(
      ma.sum('outreach_slack_service_request_duration_seconds_count', { endpoint: 'other', status: 'timeout' }),
    ).toBe(1);
    const mb = parseExposition(await b.text());
    expect(mb.sum('outreach_slack_limiter_rate_limited_total')).toBe(0);
    expect(mb.find('outreach_slack_service_request_duration_seconds_count')).toEqual([]);
  });

  it('measures the lag from a call end, not before it, and skips calls without an end', async () => {
    const m = createMetrics({ defaultMetrics: false });
    const ended = Date.parse('2026-03-01T10:00:00Z');
    m.callShown('2026-03-01T10:00:00Z', ended + 12_000);
    m.callShown('2026-03-01T10:00:00Z', ended - 3_000); // our clock behind the service's
    m.callShown(null, ended);
    m.callShown('not a date', ended);
    const e = parseExposition(await m.text());
    expect(e.sum('outreach_slack_call_end_to_slack_seconds_count')).toBe(2);
    expect(e.sum('outreach_slack_call_end_to_slack_seconds_sum')).toBe(12);
  });
});
