import { libraryBuild } from '../../tsup.shared';

export default libraryBuild({
  index: 'src/index.ts',
  'serve/index': 'src/serve/index.ts',
  'viewer/index': 'src/viewer/index.ts',
  'runtime/index': 'src/runtime/index.ts',
});
