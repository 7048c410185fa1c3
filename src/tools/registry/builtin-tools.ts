/** mca's own tools, in the order the model is told them. */
import type { ToolDefinition } from './define-tool.js';
import { bashTool } from '../processes/bash.js';
import { taskOutputTool, taskStopTool } from '../processes/task-tools.js';
import { editTool } from '../editing/edit.js';
import { exitPlanModeTool } from '../planning/exit-plan-mode.js';
import { globTool } from '../walking/glob.js';
import { createGrepTool } from '../grep/grep.js';
import { lsTool } from '../walking/ls.js';
import { multiEditTool } from '../editing/multi-edit.js';
import { readTool } from '../files/read.js';
import { recallTool } from '../memory/recall.js';
import { todoWriteTool } from '../planning/todo-write.js';
import { createWebFetchTool } from '../web/web-fetch.js';
import { writeTool } from '../editing/write.js';

export function builtinTools(): ToolDefinition[] {
  return [
    lsTool,
    globTool,
    createGrepTool(),
    readTool,
    writeTool,
    editTool,
    multiEditTool,
    bashTool,
    taskOutputTool,
    taskStopTool,
    todoWriteTool,
    recallTool,
    exitPlanModeTool,
    createWebFetchTool(),
  ];
}
