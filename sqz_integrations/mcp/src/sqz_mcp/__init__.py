"""sqz-mcp: an MCP server with lossless, deduplicating file/grep/list tools, and a proxy that
compresses the results of any other stdio MCP server through the sqz pipeline."""
