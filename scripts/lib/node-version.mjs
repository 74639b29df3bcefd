// The Node.js versions Lock Lab supports (package.json "engines").
import { LocklabError, warn } from './log.mjs';

const OLDEST = 20;
const NEWEST = 24;

export function checkNodeVersion(version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  if (major < OLDEST) {
    throw new LocklabError(
      `Lock Lab needs Node.js ${OLDEST}–${NEWEST}; this is ${version}. ` +
        `(Debian 12's own nodejs package is 18; install Node ${OLDEST} or newer, e.g. from nodejs.org or with nvm.)`,
    );
  }
  if (major > NEWEST) warn(`Node.js ${version} is newer than the versions Lock Lab is tested on (${OLDEST}–${NEWEST}).`);
}
