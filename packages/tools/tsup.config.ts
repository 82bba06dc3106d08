import { libraryBuild } from '../../tsup.shared';

export default libraryBuild({
  index: 'src/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  'mcp/stdio': 'src/mcp/stdio.ts',
});
