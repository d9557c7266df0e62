import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.js';
import { buildWorld, type World } from './support/world.js';

// The intents page takes its total from a counter kept with each create and delete:
// it must always equal the number of intents, also after conflicts and races.
describe('intent totals', () => {
  let h: Harness;
  let world: World;
  beforeAll(async () => {
    h = await startHarness();
    world = await buildWorld(h);
  });
  afterAll(() => h.close());

  const total = async () => (await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=100`, { token: world.tokens.lead })).body.data;
  const create = (name: string) => h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name, description: 'x' } });

  it('counts creates, refused duplicates, simultaneous creates and deletes exactly', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await create(`intent-${i}`)).body.data.id as string);
    expect((await create('INTENT-1')).status).toBe(409);
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 ? 'raced' : `parallel-${i}`)));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    await h.call('DELETE', `/v1/intent/${created[0]}`, { token: world.tokens.lead });
    await h.call('DELETE', `/v1/intent/${created[1]}`, { token: world.tokens.lead });
    const page = await total();
    expect(page.totalItems).toBe(8);
    expect(page.data).toHaveLength(8);
    expect(page.totalPages).toBe(1);
  });
});
