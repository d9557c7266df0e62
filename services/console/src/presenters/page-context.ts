import type { Flash } from '../domain/console-session.js';
import type { SignedInUser } from '../domain/signed-in-user.js';

/** Where a page sits in the console's navigation, so the menu marks it current. */
export type NavPlace =
  | { area: 'home' }
  | { area: 'sign-in' }
  | { area: 'organisation'; orgId: string; item: OrganisationPage }
  | { area: 'ecosystems'; ecosystemId?: string }
  | { area: 'status-lists' }
  | { area: 'admin' };

export type OrganisationPage =
  'overview' | 'sessions' | 'verifiers' | 'templates' | 'trust-anchors' | 'certificates' | 'directory';

export interface Breadcrumb {
  label: string;
  href?: string;
}

/** What every page's frame needs from the request: who, where, the form token and the last form's outcome. */
export interface PageContext {
  user?: SignedInUser;
  /** The anti-forgery token every form and script call sends back (bound to this browser's session). */
  csrfToken: string;
  flash?: Flash;
  place: NavPlace;
}

/** What one page adds to the frame. */
export interface PageFrame {
  /** The page's heading and document title. */
  title: string;
  breadcrumbs?: Breadcrumb[];
  /** The page's own scripts (ES modules under /assets/scripts/). */
  scripts?: string[];
  /** Third-party browser libraries the page needs (classic scripts under /assets/vendor/). */
  vendorScripts?: string[];
}
