/**
 * s17-interrupt (tools/capturelab-s17), json mode: lets the host interrupt a turn of `pi --mode json` without
 * ending the process. Print mode reads no commands and handles only SIGTERM and SIGHUP (by exiting); this
 * extension, loaded with -e, aborts the running turn when the process gets SIGUSR2, as the rpc command
 * {"type":"abort"} does (ctx.abort(): the session's abort). Print mode then goes on with the next prompt.
 * It writes nothing (stdout is the JSONL stream).
 */

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	let ctx: ExtensionContext | undefined;
	pi.on("agent_start", (_event, c) => {
		ctx = c;
	});
	pi.on("agent_end", () => {
		ctx = undefined;
	});
	process.on("SIGUSR2", () => {
		ctx?.abort();
	});
}
