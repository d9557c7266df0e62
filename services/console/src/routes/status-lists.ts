import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { listIdOf } from '../domain/status-list-token.js';
import { StatusListPage, type StatusListSearch } from '../presenters/pages/status-list-page.js';
import { loadStatusList, type LoadStatusListDeps } from '../use-cases/load-status-list.js';
import { pageContext, pageSchema, requireSignIn, sendPage } from './web-session.js';

const Number0 = (maximum: number) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum }), Type.Literal('')]));

/** A status list's entries, decoded and searchable. */
export function registerStatusListRoutes(app: App, deps: LoadStatusListDeps): void {
  app.get(
    '/status-lists',
    {
      schema: pageSchema({
        querystring: Type.Object({
          list: Type.Optional(Type.String({ maxLength: 2048 })),
          index: Number0(1_000_000_000),
          status: Number0(255),
          page: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { list, index, status, page } = request.query;
      const search: StatusListSearch = {
        ...(list ? { list } : {}),
        ...(typeof index === 'number' ? { index } : {}),
        ...(typeof status === 'number' ? { status } : {}),
        page,
      };
      const context = pageContext(request, reply, { area: 'status-lists' });
      if (!list) return sendPage(reply, StatusListPage({ context, search }));
      const listId = listIdOf(list);
      if (!listId)
        return sendPage(
          reply,
          StatusListPage({
            context,
            search,
            problem: {
              message: 'Give a list id (a UUID) or an address ending in /status-lists/<id>.',
              code: 'VALIDATION_FAILED',
            },
          }),
          400,
        );
      const loaded = await loadStatusList(deps, { listId });
      return sendPage(
        reply,
        StatusListPage({
          context,
          search,
          listId,
          ...(loaded.ok ? { decoded: loaded.value.list } : { problem: loaded.problem }),
        }),
        loaded.ok ? 200 : loaded.problem.status === 404 ? 404 : 502,
      );
    },
  );
}
