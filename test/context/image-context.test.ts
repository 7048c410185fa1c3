/**
 * Images in the context build: counted in the budget (Anthropic's width × height / 750 after its downscaling),
 * sent with the input and with full tool results of this turn only, never with a degraded step, and within the
 * request's caps (newest first, the input's own images before any).
 */
import { describe, expect, it } from 'vitest';
import { ContextBuilder, type ScratchpadStep } from '../../src/context/context-builder.js';
import { imageTokens, MAX_IMAGE_BYTES_PER_REQUEST, type ImagePart } from '../../src/text/image-part.js';

const builder = new ContextBuilder({ systemPrompt: 'SYSTEM' });

function image(label: string, width = 750, height = 100, bytes = 1000): ImagePart {
  return { type: 'image', mediaType: 'image/png', data: 'AAAA', bytes, width, height, label };
}

function step(n: number, images: ImagePart[]): ScratchpadStep {
  return {
    assistant: `Thought: ${n}\nAction: Read[{}]`,
    observation: `[image: s${n}.png]`,
    compressed: '{}',
    tool: 'Read',
    images,
    native: {
      reply: n,
      replyText: '',
      call: { id: `c${n}`, name: 'Read', input: {} },
      isError: false,
    },
  };
}

describe('images in the context build', () => {
  it('counts each image in the input and scratchpad parts and in the total', () => {
    const plain = builder.build({ history: [], scratchpad: [step(1, [])], question: 'look' });
    const withImages = builder.build({
      history: [],
      scratchpad: [step(1, [image('a')])],
      question: 'look',
      questionImages: [image('q', 1500, 500)],
    });
    expect(withImages.totalTokens - plain.totalTokens).toBe(100 + 1000);
    expect(withImages.parts.find((part) => part.id === 'input')?.tokens).toBeGreaterThanOrEqual(1000);
  });

  it('a hostile header (100000×100000) counts as the downscaled image the model sees', () => {
    expect(imageTokens({ width: 100_000, height: 100_000 })).toBeLessThanOrEqual(1_600);
  });

  it('sends step images only while the step is shown in full', () => {
    const steps = [step(1, [image('old')]), step(2, [image('new')])];
    const full = builder.build({ history: [], scratchpad: steps, question: 'q' }).toNativeRequest();
    const degraded = builder
      .build({ history: [], scratchpad: steps, question: 'q', fullObservationSteps: 1 })
      .toNativeRequest();
    const labels = (turn: typeof full.turn) =>
      turn.flatMap((message) =>
        message.role === 'user' ? message.results.flatMap((result) => (result.images ?? []).map((i) => i.label)) : [],
      );
    expect(labels(full.turn)).toEqual(['old', 'new']);
    expect(labels(degraded.turn)).toEqual(['new']);
  });

  it('keeps the input images and the newest results within the request byte cap', () => {
    const big = (label: string) => image(label, 10, 10, Math.floor(MAX_IMAGE_BYTES_PER_REQUEST / 3));
    const built = builder.build({
      history: [],
      scratchpad: [step(1, [big('s1')]), step(2, [big('s2')]), step(3, [big('s3')])],
      question: 'q',
      questionImages: [big('q')],
    });
    const request = built.toNativeRequest();
    expect(request.user.flatMap((segment) => (segment.images ?? []).map((i) => i.label))).toEqual(['q']);
    const sent = request.turn.flatMap((message) =>
      message.role === 'user' ? message.results.flatMap((result) => (result.images ?? []).map((i) => i.label)) : [],
    );
    expect(sent).toEqual(['s2', 's3']);
  });
});
