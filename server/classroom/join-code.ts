/** Fresh join codes: 75 bits from the OS's CSPRNG, in the human-typable form lib/classroom defines. */
import crypto from 'node:crypto';
import { formatJoinCode, JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH } from '@/lib/classroom';

export function generateJoinCode(): string {
  // 32 symbols = 5 bits each; a byte masked to 5 bits keeps the draw uniform.
  const bytes = crypto.randomBytes(JOIN_CODE_LENGTH);
  let compact = '';
  for (const byte of bytes) compact += JOIN_CODE_ALPHABET[byte & 31];
  return formatJoinCode(compact);
}
