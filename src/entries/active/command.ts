// A user's command (`until`, `verify`, `metric`) run for a Stop (hooks/active/command.js): a worker thread that
// src/io/runVerify.ts starts and waits on, so that the command ends when its shell exits.
import { superviseCommand } from "../../io/commandWorker.js";

superviseCommand();
