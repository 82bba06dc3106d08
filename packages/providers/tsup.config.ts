import { libraryBuild } from '../../tsup.shared';

export default libraryBuild({ index: 'src/index.ts', testing: 'src/testing/index.ts' });
