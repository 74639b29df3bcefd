/** Links and navigation that keep the learner's language (`/ar/…` stays `/ar/…`). */
import { createNavigation } from 'next-intl/navigation';
import { routing } from './routing';

export const { Link, redirect, usePathname, useRouter, getPathname } = createNavigation(routing);
