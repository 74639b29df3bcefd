'use client';
/** The playground: the lab workspace with a Redlock program and no lesson text. */
import { Workspace } from '@/components/workspace/workspace';
import { PLAYGROUND_LESSON } from './playground-lesson';

export function Playground() {
  return <Workspace lesson={PLAYGROUND_LESSON} />;
}
