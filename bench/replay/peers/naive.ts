/**
 * `naive` (a reference, not a product): the chat transcript with nothing ever removed. A request over the window
 * could never be sent; it is counted as an overflow and the replay goes on, so its figures are not a real cost.
 */
import { ChatStrategy } from '../chat-strategy.js';
import type { StrategyEvent, StrategyName } from '../strategy.js';

export class NaiveStrategy extends ChatStrategy {
  readonly name: StrategyName = 'naive';

  protected beforeCall(): StrategyEvent[] {
    return [];
  }
}
