import type { ReactNode } from 'react';

/**
 * Every page lives under `app/[locale]`, whose layout renders `<html lang dir>`
 * for its language; this root only passes through, so a URL outside every
 * language (a 404) still has a layout (app/not-found.tsx draws its own page).
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
