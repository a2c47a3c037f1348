package server

// Uploads over HTTP: the file travels in the request, as a multipart form
// (the "file" part) or as JSON ({"name", "content": base64}), is kept in
// the caller's uploads folder, and reaches a page's file input through
// upload_file, on a local browser or a Grid's node alike.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/files"
)

// MaxUpload is the largest request body the upload routes accept
// (POST /files and POST /browser/upload_file); every other route takes
// MaxBody.
const MaxUpload = 64 << 20

// bodyLimit is the most a request's body may hold.
func bodyLimit(r *http.Request) int64 {
	if r.Method == http.MethodPost && (r.URL.Path == FilesPath || r.URL.Path == BrowserPrefix+"upload_file") {
		return MaxUpload
	}
	return MaxBody
}

// upload is a file sent in a request, and the other fields of its form.
type upload struct {
	name   string
	data   []byte
	fields map[string]any
}

// uploadFrom reads the file of a request: the "file" part of a multipart
// form (other parts are fields, JSON where they parse), or, in a JSON
// body, "file": {"name", "content"} with the content in base64. ok is
// false when the request carries no file at all.
func uploadFrom(r *http.Request) (u upload, ok bool, err error) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		return multipartUpload(r.Body, params["boundary"])
	}
	args, err := jsonArgs(r)
	if err != nil {
		return upload{}, false, err
	}
	raw, has := args["file"]
	if !has {
		return upload{fields: args}, false, nil
	}
	delete(args, "file")
	f, _ := raw.(map[string]any)
	name, _ := f["name"].(string)
	content, _ := f["content"].(string)
	data, derr := base64.StdEncoding.DecodeString(content)
	if f == nil || name == "" || derr != nil {
		return upload{}, false, errors.New(`"file" is {"name": "report.pdf", "content": "<base64>"}; or send the file as the "file" part of a multipart/form-data body.`)
	}
	return upload{name: name, data: data, fields: args}, true, nil
}

func multipartUpload(body io.Reader, boundary string) (upload, bool, error) {
	if boundary == "" {
		return upload{}, false, errors.New("The multipart body has no boundary. Send multipart/form-data with a \"file\" part, as curl -F file=@report.pdf does.")
	}
	u := upload{fields: map[string]any{}}
	mr := multipart.NewReader(body, boundary)
	found := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return upload{}, false, errors.New("The multipart body could not be read. Send multipart/form-data with a \"file\" part, as curl -F file=@report.pdf does.")
		}
		data, err := io.ReadAll(io.LimitReader(part, MaxUpload+1))
		if err != nil {
			return upload{}, false, errors.New("The multipart body could not be read.")
		}
		if part.FormName() == "file" {
			u.name, u.data, found = part.FileName(), data, true
			continue
		}
		var v any
		if jerr := json.Unmarshal(data, &v); jerr == nil {
			u.fields[part.FormName()] = v
		} else {
			u.fields[part.FormName()] = string(data)
		}
	}
	if found && u.name == "" {
		return upload{}, false, errors.New(`The "file" part has no file name. Send it as curl -F file=@report.pdf does, or name it with a filename.`)
	}
	return u, found, nil
}

// keepUpload keeps an uploaded file in the caller's uploads folder.
func (s *Server) keepUpload(r *http.Request, u upload) (files.File, error) {
	box, err := s.sessions.Files(principalOf(r))
	if err != nil {
		return files.File{}, err
	}
	if err := files.CheckName(u.name); err != nil {
		return files.File{}, err
	}
	return box.Keep(files.Uploads, u.name, u.data)
}

// postFile serves POST /files: the file in the request is kept, and the
// answer names it with its URI and a signed link (201).
func (s *Server) postFile(w http.ResponseWriter, r *http.Request) {
	u, ok, err := uploadFrom(r)
	if err == nil && !ok {
		err = errors.New(`The request carries no file. Send it as the "file" part of multipart/form-data (curl -F file=@report.pdf), or as JSON {"file": {"name": "report.pdf", "content": "<base64>"}}.`)
	}
	if err != nil {
		writeError(w, ErrorAnswer{Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	f, err := s.keepUpload(r, u)
	if err != nil {
		writeError(w, ErrorAnswer{Status: statusOf(err), Error: s.scrub.Text(err)})
		return
	}
	writeJSON(w, http.StatusCreated, s.fileInfo(r, f))
}

func (s *Server) fileInfo(r *http.Request, f files.File) FileLinkInfo {
	return FileLinkInfo{URI: "session://files/" + f.Name, Name: f.Name, MIMEType: f.MimeType, Link: s.sessions.Link(principalOf(r), f.Name)}
}

// uploadFile serves POST /browser/upload_file: with a file in the request
// it is kept first and named as upload_file's kept argument; without
// one, the body is upload_file's arguments as for any tool.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) {
	u, ok, err := uploadFrom(r)
	if err != nil {
		writeError(w, ErrorAnswer{Tool: "upload_file", Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	args := u.fields
	if ok {
		if _, both := args["kept"]; both {
			writeError(w, ErrorAnswer{Tool: "upload_file", Status: http.StatusBadRequest, Error: `Send either a file or "kept", the name of a file already kept, not both.`})
			return
		}
		f, err := s.keepUpload(r, u)
		if err != nil {
			writeError(w, ErrorAnswer{Tool: "upload_file", Status: statusOf(err), Error: s.scrub.Text(err)})
			return
		}
		args["kept"] = f.Name
	}
	s.answerTool(w, r, "upload_file", args)
}
