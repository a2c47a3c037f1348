// Entry: connect to the host with the SDK's App and hand its events to the Shell.

import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import { Shell } from "./shell";
import { applyHostLook } from "./theme";
import "./style.css";

const app = new App(
  { name: "selenium-flow", version: "1.0.0" },
  { availableDisplayModes: ["inline", "fullscreen"] },
  { autoResize: true },
);
const shell = new Shell(document.getElementById("app")!, app);

app.addEventListener("toolinput", (p) => shell.toolInput(p.arguments));
app.addEventListener("toolresult", (r) => shell.toolResult(r));
app.addEventListener("toolcancelled", () => shell.toolCancelled());
app.addEventListener("hostcontextchanged", (changed) => {
  applyHostLook(app.getHostContext());
  shell.hostChanged(changed);
});
app.onteardown = async () => ({});

app
  .connect(new PostMessageTransport(window.parent, window.parent))
  .then(() => {
    applyHostLook(app.getHostContext());
    shell.hostChanged(app.getHostContext());
  })
  .catch((err) => console.error("[selenium-flow] could not connect to the host:", err));
