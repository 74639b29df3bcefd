/**
 * The keys of one English message file, as dotted paths to its sentences: a sentence the server says by key is
 * checked by the compiler against the catalogue, so a key that names no sentence fails the type check instead
 * of showing its raw key on a page. A type only: nothing here ships to the browser or the sandbox.
 */
export type MessageKeys<Catalogue, Prefix extends string = ''> = {
  [K in keyof Catalogue & string]: Catalogue[K] extends string ? `${Prefix}${K}` : MessageKeys<Catalogue[K], `${Prefix}${K}.`>;
}[keyof Catalogue & string];
