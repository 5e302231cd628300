// The devtools page (placeholder until the front end lands).
document.body.textContent = "x-mcp devtools";
