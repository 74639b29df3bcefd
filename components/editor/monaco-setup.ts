/**
 * Monaco from the local `monaco-editor` package (no CDN): its web workers
 * are bundled from node_modules, TypeScript is set up for the sandbox (top-
 * level await, ES modules, no DOM), and the sandbox's modules get their type
 * definitions. Imported only by the editor component, which is loaded with
 * next/dynamic({ ssr: false }) so none of this runs on the server.
 */
import * as monaco from 'monaco-editor';
import { SANDBOX_TYPE_FILES } from './sandbox-types';

let configured = false;

export function setUpMonaco(): typeof monaco {
  if (configured) return monaco;
  configured = true;

  self.MonacoEnvironment = {
    getWorker(_workerId: string, label: string): Worker {
      if (label === 'typescript' || label === 'javascript') {
        return new Worker(new URL('monaco-editor/language/typescript/ts.worker.js', import.meta.url), { type: 'module' });
      }
      return new Worker(new URL('monaco-editor/editor/editor.worker.js', import.meta.url), { type: 'module' });
    },
  };

  const ts = monaco.typescript;
  ts.typescriptDefaults.setCompilerOptions({
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    lib: ['es2022'],
    allowNonTsExtensions: true,
    allowSyntheticDefaultImports: true,
    esModuleInterop: true,
    strict: false,
    noImplicitAny: false,
    noEmit: true,
    // Learner programs use top-level await; every file is a module.
    moduleDetection: 3,
  });
  ts.typescriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
  ts.typescriptDefaults.setEagerModelSync(true);
  for (const file of SANDBOX_TYPE_FILES) ts.typescriptDefaults.addExtraLib(file.content, file.path);
  return monaco;
}

export type Monaco = typeof monaco;
