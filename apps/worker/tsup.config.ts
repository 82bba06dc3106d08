import { appBundle } from '../../tsup.shared';

export default appBundle('src/main.ts');
