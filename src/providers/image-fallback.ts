/**
 * A request for a model that takes no images (config/model-profiles.ts `takesImages`): every image part becomes
 * IMAGE_OMITTED_NOTE in the text it followed, so such a model gets a one-line note, never a provider error.
 */
import { IMAGE_OMITTED_NOTE } from '../text/image-part.js';
import type { ModelRequest, PromptSegment, ToolResultBlock, TurnMessage } from './types.js';

function notes(count: number): string {
  return Array.from({ length: count }, () => IMAGE_OMITTED_NOTE).join('\n');
}

function withNote(text: string, count: number): string {
  if (count === 0) return text;
  return text === '' ? notes(count) : `${text}\n${notes(count)}`;
}

function segment(value: PromptSegment): PromptSegment {
  if (value.images === undefined || value.images.length === 0) return value;
  const { images, ...rest } = value;
  return { ...rest, text: withNote(value.text, images.length) };
}

function result(value: ToolResultBlock): ToolResultBlock {
  if (value.images === undefined || value.images.length === 0) return value;
  const { images, ...rest } = value;
  return { ...rest, content: withNote(value.content, images.length) };
}

function turnMessage(message: TurnMessage): TurnMessage {
  return message.role === 'assistant' ? message : { ...message, results: message.results.map(result) };
}

export function hasImages(request: ModelRequest): boolean {
  const segments = [...request.user, ...(request.tail ?? [])];
  if (segments.some((value) => (value.images?.length ?? 0) > 0)) return true;
  return (request.turn ?? []).some(
    (message) => message.role === 'user' && message.results.some((value) => (value.images?.length ?? 0) > 0),
  );
}

export function withoutImages(request: ModelRequest): ModelRequest {
  if (!hasImages(request)) return request;
  return {
    ...request,
    user: request.user.map(segment),
    ...(request.tail ? { tail: request.tail.map(segment) } : {}),
    ...(request.turn ? { turn: request.turn.map(turnMessage) } : {}),
  };
}
