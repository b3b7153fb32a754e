import { CampaignDetail, CampaignList } from '../../src/outreach/schemas.js';

describe('schemas', () => {
  it('keeps unknown fields of a campaign and its analytics', () => {
    const c = CampaignDetail.parse({
      id: 1,
      name: 'x',
      status: 'active',
      integration: { id: 'i', type: 'phone_call' },
      agent: { id: 'a', name: 'A' },
      created_at: '2026-01-01T00:00:00Z',
      analytics: { calls: 3, somethingNew: 'y' },
      brand_new_field: 42,
    });
    expect((c as Record<string, unknown>).brand_new_field).toBe(42);
    expect(c.analytics?.somethingNew).toBe('y');
  });

  it('rejects a list whose campaign has no id, naming the path', () => {
    const r = CampaignList.safeParse({
      total_count: 1,
      campaigns: [{ name: 'x', status: 'active' }],
      pagination: { has_next: false, has_previous: false },
    });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues[0]?.path)).toBe('["campaigns",0,"id"]');
  });
});
