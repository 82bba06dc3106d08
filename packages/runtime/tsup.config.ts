import { libraryBuild } from '../../tsup.shared';

export default libraryBuild(['src/index.ts']);
