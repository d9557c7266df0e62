import { describe, expect } from 'vitest';
import { ecosystemTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import type { World } from '../support/world.js';

// The intents page takes its total from a counter kept with each create and delete:
// it must always equal the number of intents, also after conflicts and races.
describe('intent totals', () => {
  const total = async (h: Harness, world: World) =>
    (await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=100`, { token: world.tokens.lead })).body
      .data;
  const create = (h: Harness, world: World, name: string) =>
    h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
      token: world.tokens.lead,
      body: { name, description: 'x' },
    });

  test('counts creates, refused duplicates, simultaneous creates and deletes exactly', async ({
    harness: h,
    world,
  }) => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await create(h, world, `intent-${i}`)).body.data.id as string);
    expect((await create(h, world, 'INTENT-1')).status).toBe(409);
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(h, world, i % 2 ? 'raced' : `parallel-${i}`)),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    await h.call('DELETE', `/v1/intent/${created[0]}`, { token: world.tokens.lead });
    await h.call('DELETE', `/v1/intent/${created[1]}`, { token: world.tokens.lead });
    const page = await total(h, world);
    expect(page.totalItems).toBe(8);
    expect(page.data).toHaveLength(8);
    expect(page.totalPages).toBe(1);
  });
});
