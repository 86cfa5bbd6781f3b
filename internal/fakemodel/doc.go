// Package fakemodel runs fake model servers on 127.0.0.1 that speak the real
// streaming wire formats of the model providers, so that real coding agents
// (Claude Code, Codex, Gemini CLI, opencode) can be driven in tests without a
// cloud account.
//
// It owns: one httptest server per provider format, the decoding of each
// provider's request body into one provider-neutral Exchange (system text,
// messages, tool calls, tool results, tools offered), the recording of every
// request, and the encoding of a scripted Reply (text and/or tool calls) in
// the provider's own streaming format. It must not import any chipchat
// package: it is test infrastructure that knows only HTTP and JSON.
//
// Formats:
//   - Anthropic: POST /v1/messages with "stream": true answers Server-Sent
//     Events message_start, content_block_start, content_block_delta
//     (text_delta, input_json_delta), content_block_stop, message_delta
//     (stop_reason end_turn or tool_use), message_stop; without stream, one
//     Message JSON. POST /v1/messages/count_tokens answers input_tokens;
//     GET /v1/models lists models.
//   - OpenAI Chat Completions: POST /v1/chat/completions, chunks of
//     chat.completion.chunk with delta.content and delta.tool_calls (index,
//     id, function name, then argument fragments), finish_reason stop or
//     tool_calls, a usage chunk when stream_options.include_usage, then
//     "data: [DONE]". GET /v1/models lists models.
//   - OpenAI Responses: POST /v1/responses, events response.created,
//     response.in_progress, response.output_item.added, content_part.added,
//     response.output_text.delta/done, function_call items with
//     response.function_call_arguments.delta/done, output_item.done and
//     response.completed with usage. Custom (freeform) tools answer
//     custom_tool_call items.
//   - Gemini: POST /v1beta/models/{model}:streamGenerateContent?alt=sse,
//     data lines of GenerateContentResponse (candidates[0].content.parts
//     with text and functionCall; finishReason STOP on the last; usage
//     metadata); :generateContent answers one JSON response; :countTokens
//     answers totalTokens; GET /v1beta/models lists models.
//
// Decisions:
//   - What to answer is a Responder: a function of the decoded Exchange.
//     Script builds one from Rules (first match wins), because agents make
//     requests of their own (titles, next-speaker checks, summaries) that a
//     fixed sequence of replies would get out of step with.
//   - Every request is recorded (method, path, body, decoded exchange when it
//     is a model call), so tests can assert what the model received: the
//     history, attached file names, tool results.
//   - A Reply can fail (Fail: an HTTP error in the provider's error shape)
//     or stall after its text (Hold: until the client goes away), for the
//     error and cancel paths of the agents.
//   - Unknown paths answer 404 in the provider's error shape and are
//     recorded, so a test can report which endpoint an agent wanted.
package fakemodel
