// A real MCP client (the official TypeScript SDK) against mneme: lists the
// tools and resources, remembers, recalls, and reads every resource. Exits
// non-zero on the first failed expectation.
//
//   node client.mjs stdio MNEME_BINARY
//   node client.mjs http URL [TOKEN]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, token] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: ["mcp"], env: process.env })
  : new StreamableHTTPClientTransport(new URL(target), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    });

function expect(ok, what, got) {
  if (!ok) {
    console.error(`FAIL: ${what}\n${JSON.stringify(got, null, 2)}`);
    process.exit(1);
  }
}

const client = new Client({ name: "mneme-e2e", version: "1.0.0" });
await client.connect(transport);
expect(client.getInstructions()?.includes("recall"), "server instructions mention recall", client.getInstructions());

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
for (const want of ["context", "forget", "get", "recall", "remember"]) {
  expect(names.includes(want), `tool ${want} is listed`, names);
}
expect(tools.every((t) => t.inputSchema?.type === "object"), "every tool has an input schema", tools);

const text = `The staging database runs Postgres 17 (${mode} e2e)`;
const remembered = await client.callTool({
  name: "remember",
  arguments: { text, project: "e2e", tags: "infra,db", type: "semantic" },
});
expect(!remembered.isError && remembered.structuredContent?.id, "remember returns an id", remembered);
const id = remembered.structuredContent.id;

const recalled = await client.callTool({
  name: "recall",
  arguments: { query_text: "which postgres version does staging run", project_id: "e2e", limit: 3 },
});
const hits = recalled.structuredContent?.hits ?? [];
expect(!recalled.isError && hits.some((h) => h.id === id), "recall finds the memory", recalled);
expect(recalled.structuredContent.context.includes("Postgres 17"), "recall returns a prompt-ready context", recalled);

const bad = await client.callTool({ name: "recall", arguments: { query: "", project: "e2e" } });
expect(bad.isError, "a blank query is a tool error", bad);

const got = await client.callTool({ name: "get", arguments: { id } });
expect(!got.isError && got.structuredContent?.text === text, "get returns the record", got);

const { resources } = await client.listResources();
const { resourceTemplates } = await client.listResourceTemplates();
const uris = resources.map((r) => r.uri);
for (const want of ["mneme://memory-types", "mneme://projects", "mneme://health", "mneme://settings"]) {
  expect(uris.includes(want), `resource ${want} is listed`, uris);
}
expect(resourceTemplates.some((t) => t.uriTemplate === "mneme://projects/{project}/tags"), "the tags template is listed", resourceTemplates);
for (const uri of [...uris, "mneme://projects/e2e/tags"]) {
  const res = await client.readResource({ uri });
  expect(res.contents?.length === 1 && JSON.parse(res.contents[0].text) !== null, `resource ${uri} reads as JSON`, res);
}
const tags = JSON.parse((await client.readResource({ uri: "mneme://projects/e2e/tags" })).contents[0].text);
expect(JSON.stringify(tags).includes("infra"), "the project's tags include infra", tags);

await client.close();
console.log(`ok: ${mode}: ${names.length} tools, ${uris.length} resources, remember/recall/get round trip`);
