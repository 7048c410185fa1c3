/** mca's own tools, in the order the model is told them. */
import type { ToolDefinition } from './define-tool.js';
import { bashTool } from './bash.js';
import { taskOutputTool, taskStopTool } from './background-task-tools.js';
import { editTool } from './edit.js';
import { exitPlanModeTool } from './exit-plan-mode.js';
import { globTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { lsTool } from './ls.js';
import { multiEditTool } from './multi-edit.js';
import { readTool } from './read.js';
import { recallTool } from './recall.js';
import { todoWriteTool } from './todo-write.js';
import { createWebFetchTool } from './web-fetch.js';
import { writeTool } from './write.js';

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
