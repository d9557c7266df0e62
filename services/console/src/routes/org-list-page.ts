import type { VNode } from 'preact';
import type { App } from '@tessera/service-kit';
import type { ServiceResult } from '../domain/service-problem.js';
import type { OrganisationPage, PageContext } from '../presenters/page-context.js';
import { answerPage } from './page-errors.js';
import { OrgParams, PageQuery, pageSchema, requireSignIn, sessionOf } from './web-session.js';

/** What a list page's use case is asked: whose token, which organisation, which page of the list. */
export interface OrgListPageInput {
  token: string;
  orgId: string;
  pageNumber: number;
}

/**
 * `GET /orgs/{orgId}/{item}?page=n`: a page of what an organisation has (verifiers,
 * templates, trust anchors), loaded a page at a time by one use case; the service's
 * problem answers as a page.
 */
export function registerOrgListPage<T>(
  app: App,
  item: OrganisationPage,
  load: (input: OrgListPageInput) => Promise<ServiceResult<T>>,
  render: (page: { context: PageContext; orgId: string; value: T }) => VNode,
): void {
  app.get(
    `/orgs/:orgId/${item}`,
    { schema: pageSchema({ params: OrgParams, querystring: PageQuery }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const loaded = await load({ token: sessionOf(request).accessToken, orgId, pageNumber: request.query.page });
      return answerPage(request, reply, loaded, { area: 'organisation', orgId, item }, (value, context) =>
        render({ context, orgId, value }),
      );
    },
  );
}
