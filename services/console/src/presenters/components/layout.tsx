import type { ComponentChildren } from 'preact';
import { can, type OrgRole } from '../../domain/signed-in-user.js';
import type { NavPlace, OrganisationPage, PageContext, PageFrame } from '../page-context.js';
import { scriptPath } from '../asset-paths.js';
import { FlashMessage } from './flash-message.js';

const ORGANISATION_PAGES: Array<{
  item: OrganisationPage;
  label: string;
  path: string;
  needs?: (roles: OrgRole[]) => boolean;
}> = [
  { item: 'overview', label: 'Overview', path: '', needs: can.manageVerification },
  { item: 'sessions', label: 'Sessions', path: '/sessions', needs: can.manageVerification },
  { item: 'verifiers', label: 'Verifiers and webhooks', path: '/verifiers', needs: can.manageVerification },
  { item: 'templates', label: 'Templates', path: '/templates', needs: can.manageVerification },
  { item: 'trust-anchors', label: 'Trust anchors', path: '/trust-anchors', needs: can.manageVerification },
  { item: 'certificates', label: 'Request signing', path: '/certificates', needs: can.manageVerification },
  { item: 'directory', label: 'Directory entry', path: '/directory', needs: can.own },
];

/** The document every page is: skip link, header, menu, the page's heading, the last form's outcome, the page. */
export function Layout(props: { context: PageContext; frame: PageFrame; children: ComponentChildren }) {
  const { context, frame } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content={context.csrfToken} />
        <title>{`${frame.title} · Tessera console`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/console.css" />
        <script type="module" src={scriptPath('page')} />
        {(frame.vendorScripts ?? []).map((src) => (
          <script src={src} defer />
        ))}
        {(frame.scripts ?? []).map((src) => (
          <script type="module" src={src} />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to main content
        </a>
        <header class="top-bar">
          <a class="brand" href="/">
            Tessera console
          </a>
          {context.user ? (
            <div class="account">
              <span class="who">{context.user.email ?? context.user.name ?? context.user.sub}</span>
              <form method="post" action="/sign-out">
                <input type="hidden" name="_csrf" value={context.csrfToken} />
                <button type="submit" class="link-button">
                  Sign out
                </button>
              </form>
            </div>
          ) : null}
        </header>
        <div class="frame">
          {context.user ? <Menu context={context} /> : null}
          <main id="main" tabIndex={-1}>
            {frame.breadcrumbs && frame.breadcrumbs.length > 0 ? <Breadcrumbs items={frame.breadcrumbs} /> : null}
            <h1>{frame.title}</h1>
            {context.flash ? <FlashMessage flash={context.flash} /> : null}
            {props.children}
          </main>
        </div>
      </body>
    </html>
  );
}

function Breadcrumbs(props: { items: NonNullable<PageFrame['breadcrumbs']> }) {
  return (
    <nav aria-label="Breadcrumb" class="breadcrumbs">
      <ol>
        {props.items.map((item) => (
          <li>{item.href ? <a href={item.href}>{item.label}</a> : <span>{item.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

function Menu(props: { context: PageContext }) {
  const { user, place } = props.context;
  if (!user) return null;
  const organisations = Object.entries(user.orgRoles).sort(([a], [b]) => a.localeCompare(b));
  return (
    <nav aria-label="Console" class="menu">
      {/* Open by default; at phone width the page script folds it, and the summary opens it again. */}
      <details open id="menu-details">
        <summary class="menu-toggle">Menu</summary>
        <ul>
          <MenuLink href="/" current={place.area === 'home'} label="Home" />
          {organisations.map(([orgId, roles]) => {
            const pages = ORGANISATION_PAGES.filter((page) => !page.needs || page.needs(roles));
            const here = place.area === 'organisation' && place.orgId === orgId;
            return (
              <li>
                <span class="menu-group">
                  Organisation <span class="org-id">{orgId}</span>
                  <span class="roles">{roles.join(', ')}</span>
                </span>
                {pages.length > 0 ? (
                  <ul>
                    {pages.map((page) => (
                      <MenuLink
                        href={`/orgs/${encodeURIComponent(orgId)}${page.path}`}
                        current={here && isCurrent(place, page.item)}
                        label={page.label}
                      />
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
          <MenuLink href="/ecosystems" current={place.area === 'ecosystems'} label="Ecosystems" />
          <MenuLink href="/status-lists" current={place.area === 'status-lists'} label="Status lists" />
          {user.platformAdmin ? (
            <MenuLink href="/admin" current={place.area === 'admin'} label="Platform administration" />
          ) : null}
        </ul>
      </details>
    </nav>
  );
}

function isCurrent(place: NavPlace, item: OrganisationPage): boolean {
  return place.area === 'organisation' && place.item === item;
}

function MenuLink(props: { href: string; current: boolean; label: string }) {
  return (
    <li>
      <a href={props.href} aria-current={props.current ? 'page' : undefined}>
        {props.label}
      </a>
    </li>
  );
}
