/**
 * Every name the host and the guest modules exchange, declared once on the
 * host side: the host calls (keys of HOST_CALLS), the async requests (keys of
 * REQUESTS) and the kinds of entry the host dispatches into the guest.
 *
 * The guest modules are plain JavaScript evaluated inside QuickJS, so they
 * cannot import these: the host hands them over as a frozen object,
 * `__host.names` (guest-runtime.ts), and the guest writes `CALL.console`,
 * `REQUEST.command`, `DISPATCH.timer` instead of string literals. A name the
 * table does not have would only fail when that line runs, so
 * tests/unit/sandbox-guest-names.test.ts checks every name the guest files use.
 */
import { HOST_CALLS } from './host-calls';
import { REQUESTS } from './requests';

/** The kinds of `__lab_dispatch(kind, id, json)`: a batch of the inbox (requests.ts), or one timer firing. */
export const DISPATCH = { inbox: 'inbox', timer: 'timer' } as const;
export type DispatchKind = (typeof DISPATCH)[keyof typeof DISPATCH];

type Names<T> = { readonly [K in keyof T & string]: K };

function namesOf<T extends object>(table: T): Names<T> {
  return Object.fromEntries(Object.keys(table).map((k) => [k, k])) as Names<T>;
}

export const GUEST_NAMES = {
  call: namesOf(HOST_CALLS),
  request: namesOf(REQUESTS),
  dispatch: DISPATCH,
} as const;

/** GUEST_NAMES as a JavaScript expression that builds it, frozen, inside a QuickJS context. */
export const GUEST_NAMES_SOURCE = `(${frozen(GUEST_NAMES)})`;

function frozen(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const fields = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${frozen(v)}`);
  return `Object.freeze({ ${fields.join(', ')} })`;
}
