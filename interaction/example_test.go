package interaction_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
)

func ExampleService() {
	svc := interaction.NewService()

	// A user interface registers itself as the one provider. This one
	// always picks the first option.
	unregister, err := svc.Register(interaction.ProviderFunc(
		func(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
			q := req.Questions[0]
			return interaction.Answer{Answers: []interaction.AnswerItem{
				{ID: q.ID, Selected: []string{q.Options[0].Label}},
			}}, nil
		}))
	if err != nil {
		panic(err)
	}
	defer unregister()

	ans, err := svc.Ask(context.Background(), interaction.Request{Questions: []interaction.Question{
		{ID: "db", Question: "Which database?", Options: []interaction.Option{{Label: "SQLite"}, {Label: "Postgres"}}},
		{ID: "notes", Question: "Anything else?"},
	}})
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(ans)
	fmt.Println(string(out))
	// Output: {"answers":[{"id":"db","selected":["SQLite"]},{"id":"notes","selected":[]}]}
}

func ExampleDecodeRequest() {
	_, err := interaction.DecodeRequest(strings.NewReader(
		`{"questions": [{"id": "db", "question": "Which database?", "options": [{"label": "SQLite"}, {"label": ""}]}]}`))
	_ = json.NewEncoder(os.Stdout).Encode(interaction.NewErrorEnvelope(err))
	// Output: {"error":{"code":"INVALID_REQUEST","message":"question 1 (id \"db\"): option 2 has an empty label; every option needs a non-empty \"label\""}}
}

func ExampleError() {
	_, err := interaction.NewService().Ask(context.Background(), interaction.Request{})
	if errors.Is(err, interaction.ErrEmptyQuestions) {
		fmt.Println(interaction.CodeOf(err))
	}
	// Output: EMPTY_QUESTIONS
}

// A human who declines gives ASK_DECLINED, which the ErrDeclined sentinel
// matches whatever the provider's message; a context ended with
// ErrTimeout as its cause gives ErrTimeout.
func ExampleErrDeclined() {
	svc := interaction.NewService()
	unregister, _ := svc.Register(interaction.ProviderFunc(
		func(context.Context, interaction.Request) (interaction.Answer, error) {
			return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "not now")
		}))
	defer unregister()
	req := interaction.Request{Questions: []interaction.Question{{ID: "deploy", Question: "Deploy now?"}}}

	_, err := svc.Ask(context.Background(), req)
	fmt.Println(errors.Is(err, interaction.ErrDeclined), errors.Is(err, interaction.ErrTimeout))

	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, interaction.ErrTimeout)
	defer cancel()
	<-ctx.Done()
	_, err = svc.Ask(ctx, req)
	fmt.Println(errors.Is(err, interaction.ErrTimeout), err)
	// Output:
	// true false
	// true ASK_TIMEOUT: no answer in the time allowed
}
