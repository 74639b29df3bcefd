// @ts-check
/**
 * Next.js configuration. ESM because package.json says "type": "module".
 *
 * Nothing here may make the app reach the network at build or run time:
 * fonts are the system's (no next/font/google), images are not sent to an
 * optimiser, and telemetry is turned off by NEXT_TELEMETRY_DISABLED=1 in the
 * scripts that build and serve (Next reads it only from the environment).
 */
import { fileURLToPath } from 'node:url';
import createNextIntlPlugin from 'next-intl/plugin';

const root = fileURLToPath(new URL('.', import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The lab is served from one custom server (server/index.ts); pin the root so
  // Turbopack never guesses a parent folder because of a stray lockfile.
  turbopack: { root },
  outputFileTracingRoot: root,
  images: { unoptimized: true },
  devIndicators: false,
  // `npm test` type-checks every file (tests included, which Next's own check skips) with `tsc --noEmit`; the build
  // does not check the same program a second time (~25 s of the suite on two cores).
  typescript: { ignoreBuildErrors: true },
};

// Languages (issue 18): next-intl reads each request's messages through i18n/request.ts.
const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

export default withNextIntl(nextConfig);
