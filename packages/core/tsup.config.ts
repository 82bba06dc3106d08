import { libraryBuild } from '../../tsup.shared';

export default libraryBuild({
  index: 'src/index.ts',
  'serve/index': 'src/serve/index.ts',
  'runtime/index': 'src/runtime/index.ts',
});
