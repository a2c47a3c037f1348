package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Message is one chat message in the OpenAI chat-completions shape.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a model's request to call a function.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and carries its arguments as JSON text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec offers one function to the model.
type ToolSpec struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec is a function's name, description and JSON Schema parameters.
type FunctionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Model is a chat-completions endpoint: POST {URL}/chat/completions.
type Model struct {
	// URL is the API base, e.g. http://127.0.0.1:8080/v1.
	URL string
	// Name is sent as "model"; left out when empty.
	Name string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// HTTP is the client; one with a five-minute timeout when nil.
	HTTP *http.Client
}

type chatRequest struct {
	Model    string     `json:"model,omitempty"`
	Messages []Message  `json:"messages"`
	Tools    []ToolSpec `json:"tools,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []ToolCall      `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Chat sends the conversation and the offered tools and returns the
// model's reply: text, tool calls, or both.
func (m *Model) Chat(ctx context.Context, msgs []Message, tools []ToolSpec) (Message, error) {
	body, err := json.Marshal(chatRequest{Model: m.Name, Messages: msgs, Tools: tools})
	if err != nil {
		return Message{}, fmt.Errorf("encoding the chat request: %w", err)
	}
	url := strings.TrimRight(m.URL, "/") + "/chat/completions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Message{}, fmt.Errorf("model URL %q: %w", m.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	hc := m.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Minute}
	}
	res, err := hc.Do(req)
	if err != nil {
		return Message{}, fmt.Errorf("calling the model: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return Message{}, fmt.Errorf("reading the model's reply: %w", err)
	}
	if res.StatusCode/100 != 2 {
		return Message{}, fmt.Errorf("the model endpoint answered %s: %s", res.Status, snippet(raw))
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return Message{}, fmt.Errorf("the model's reply is not a chat completion: %w: %s", err, snippet(raw))
	}
	if cr.Error != nil {
		return Message{}, fmt.Errorf("the model endpoint refused: %s", cr.Error.Message)
	}
	if len(cr.Choices) == 0 {
		return Message{}, fmt.Errorf("the model's reply has no choices: %s", snippet(raw))
	}
	c := cr.Choices[0].Message
	out := Message{Role: "assistant", Content: contentString(c.Content), ToolCalls: c.ToolCalls}
	for i := range out.ToolCalls {
		if out.ToolCalls[i].Type == "" {
			out.ToolCalls[i].Type = "function"
		}
		if out.ToolCalls[i].ID == "" {
			out.ToolCalls[i].ID = fmt.Sprintf("call_%d", i)
		}
	}
	return out, nil
}

// contentString reads content given as a string, as null, or as a list of
// text parts.
func contentString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
