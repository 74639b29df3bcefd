/**
 * The classroom's names that the browser needs without zod (its page bundle
 * stays small): join codes and the lab commands an instructor may send.
 * lib/classroom.ts re-exports all of it next to its schemas.
 */
import { FAULT_EVENTS } from './faults/catalogue';

/**
 * Join codes are Crockford base32 (no I, L, O, U: nothing to misread), 15
 * characters = 75 random bits, shown in three groups of five:
 * `K7M2Q-9XR4T-HB3WZ`. Unguessable, and still easy to read out to a room.
 */
export const JOIN_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const JOIN_CODE_LENGTH = 15;
const JOIN_CODE_GROUP = 5;

/** A typed code in canonical form (upper case, dashes between groups), or null if it cannot be one. */
export function normalizeJoinCode(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    // What people type for the letters base32 leaves out.
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (compact.length !== JOIN_CODE_LENGTH) return null;
  for (const ch of compact) if (!JOIN_CODE_ALPHABET.includes(ch)) return null;
  return formatJoinCode(compact);
}

/** `K7M2Q9XR4THB3WZ` → `K7M2Q-9XR4T-HB3WZ`. */
export function formatJoinCode(compact: string): string {
  const groups: string[] = [];
  for (let i = 0; i < compact.length; i += JOIN_CODE_GROUP) groups.push(compact.slice(i, i + JOIN_CODE_GROUP));
  return groups.join('-');
}

/** The learner's page for a classroom. */
export const classroomPath = (code: string): string => `/classroom/${code}`;

/** The lab commands an instructor may send to the classroom's lab (the same payloads as on a learner's own lab): every fault of the catalogue, and runs. */
export const CLASSROOM_LAB_COMMANDS = [...FAULT_EVENTS, 'run:start', 'run:stop'] as const;
export type ClassroomLabCommand = (typeof CLASSROOM_LAB_COMMANDS)[number];

export function isClassroomLabCommand(event: string): event is ClassroomLabCommand {
  return (CLASSROOM_LAB_COMMANDS as readonly string[]).includes(event);
}

/** Where the page trades an instructor ticket for the instructor cookie (POST, JSON `{ ticket }`), or forgets it (DELETE). */
export const INSTRUCTOR_SESSION_PATH = '/classroom-session';
