// The scheduler role as its own process (one image, the role is the command: `npm run start:scheduler`).
import { start } from './start.js';

await start({ roles: ['scheduler'] });
