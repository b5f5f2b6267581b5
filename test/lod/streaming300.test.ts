/** Planet streaming, a teleport from orbit to 300 m with 16 fast simulated workers (streamingSim.ts). */
import { describeTeleport } from './streamingSim';

describeTeleport(300);
