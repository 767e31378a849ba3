package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/respmock"
)

func TestControlListsTurnsAndSwitchesToHanging(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mock, err := respmock.Start(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Close()
	ctl := httptest.NewServer(control(mock))
	defer ctl.Close()

	body := `{"model":"gpt-5.5","stream":true,"reasoning":{"effort":"high"},"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}]}`
	resp, err := http.Post(mock.BaseURL()+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	if resp, err := http.Post(ctl.URL+"/reply?mode=hang", "", nil); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("switch to hang: %v %v", resp, err)
	}
	hctx, hcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer hcancel()
	req, _ := http.NewRequestWithContext(hctx, "POST", mock.BaseURL()+"/responses", strings.NewReader(body))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("the mock answered after switching to hang")
	}

	resp, err = http.Get(ctl.URL + "/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var turns []struct{ Model, Effort, User string }
	if err := json.NewDecoder(resp.Body).Decode(&turns); err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || turns[0].Model != "gpt-5.5" || turns[0].Effort != "high" || turns[0].User != "hello" {
		t.Fatalf("turns = %+v", turns)
	}
	if resp, _ := http.Post(ctl.URL+"/reply?mode=nonsense", "", nil); resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad mode: %v", resp)
	}
}
