import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { unixSecondsOfUtcField } from '../domain/format.js';
import { listIdOf } from '../domain/status-list-token.js';
import { StatusListPage, type StatusListSearch } from '../presenters/pages/status-list-page.js';
import { loadStatusList, loadStatusListAggregation, type LoadStatusListDeps } from '../use-cases/load-status-list.js';
import { pageContext, pageSchema, requireSignIn, sendPage } from './web-session.js';

const Number0 = (maximum: number) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum }), Type.Literal('')]));

/** Lists of the aggregation shown per page. */
const LISTS_PER_PAGE = 50;

/** The platform's status lists, and one list's entries (now, or as of a time), decoded and searchable. */
export function registerStatusListRoutes(app: App, deps: LoadStatusListDeps): void {
  app.get(
    '/status-lists',
    {
      schema: pageSchema({
        querystring: Type.Object({
          list: Type.Optional(Type.String({ maxLength: 2048 })),
          at: Type.Optional(Type.String({ maxLength: 32 })),
          index: Number0(1_000_000_000),
          status: Number0(255),
          page: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1 }),
          versions: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { list, at, index, status, page, versions } = request.query;
      const search: StatusListSearch = {
        ...(list ? { list } : {}),
        ...(at ? { at } : {}),
        ...(typeof index === 'number' ? { index } : {}),
        ...(typeof status === 'number' ? { status } : {}),
        page,
        versions,
      };
      const context = pageContext(request, reply, { area: 'status-lists' });
      if (!list) {
        const lists = await loadStatusListAggregation(deps, { page, pageSize: LISTS_PER_PAGE });
        return sendPage(
          reply,
          StatusListPage({ context, search, ...(lists.ok ? { lists: lists.value } : { problem: lists.problem }) }),
        );
      }
      const listId = listIdOf(list);
      const time = at ? unixSecondsOfUtcField(at) : undefined;
      const refused = !listId
        ? 'Give a list id (a UUID) or an address ending in /status-lists/<id>.'
        : at && time === undefined
          ? 'Give the time as a date and a time of day (UTC), e.g. 2026-11-24T10:00:05.'
          : undefined;
      if (refused || !listId)
        return sendPage(
          reply,
          StatusListPage({ context, search, problem: { message: refused ?? '', code: 'VALIDATION_FAILED' } }),
          400,
        );
      const loaded = await loadStatusList(deps, {
        listId,
        versionsPage: versions,
        ...(time !== undefined ? { time } : {}),
      });
      return sendPage(
        reply,
        StatusListPage({
          context,
          search,
          listId,
          ...(loaded.ok ? { loaded: loaded.value } : { problem: loaded.problem }),
        }),
        loaded.ok ? 200 : loaded.problem.status === 404 ? 404 : loaded.problem.status === 501 ? 501 : 502,
      );
    },
  );
}
