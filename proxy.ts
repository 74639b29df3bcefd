/**
 * Picks the language of a page request: the URL's prefix, else the
 * remembered choice (cookie), else the browser's Accept-Language, else
 * English. Only pages go through here: Next's assets, socket.io, the lesson
 * diagrams and anything else with a file extension are left alone.
 */
import createMiddleware from 'next-intl/middleware';
import { routing } from './i18n/routing';

export default createMiddleware(routing);

export const config = {
  matcher: ['/((?!_next|socket\\.io|api|.*\\..*).*)'],
};
