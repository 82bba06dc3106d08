import { libraryBuild } from '../../tsup.shared';

export default libraryBuild({ index: 'src/index.ts', 'pg/index': 'src/pg/index.ts' });
