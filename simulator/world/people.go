package world

import (
	"fmt"
	"strings"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/campusconf/campusconf/internal/totp"
	"github.com/campusconf/campusconf/simulator/store"
)

// person is someone who appears in the records.
type person struct {
	ID       string // internal id (uuid)
	UserID   string // institutional login id
	Name     string
	Email    string
	MatricNo string
	Photo    string
	Faculty  string
	Dept     string
}

func newPerson(f *gofakeit.Faker, faculties []store.Faculty) person {
	first, last := f.FirstName(), f.LastName()
	userID := "e" + f.DigitN(7)
	fac := faculties[f.IntN(len(faculties))]
	return person{
		ID:       f.UUID(),
		UserID:   userID,
		Name:     first + " " + last,
		Email:    strings.ToLower(first+"."+last) + "@u.campus.example",
		MatricNo: "A0" + f.DigitN(6) + string(rune('A'+f.IntN(26))),
		Photo:    "https://photos.campus.example/" + userID + ".jpg",
		Faculty:  fac.FacC,
		Dept:     fac.DeptT1,
	}
}

// shuffled is 0..n-1 in an order drawn from f: a channel's members are
// the pool in this order, distinct while their number allows.
func shuffled(f *gofakeit.Faker, n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := len(idx) - 1; i > 0; i-- {
		j := f.IntN(i + 1)
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx
}

// fixtureUsers are the callers, in the order of the fixture's users.
var fixtureUsers = []struct {
	name     string
	role     store.Role
	approves bool
}{
	{"admin", store.RoleSuperAdmin, true},
	{"owner", store.RoleOwner, true},
	{"staff", store.RoleStaff, false},
	{"student", store.RoleStudent, false},
}

func newUsers(f *gofakeit.Faker, faculties []store.Faculty) []store.User {
	out := make([]store.User, len(fixtureUsers))
	for i, fu := range fixtureUsers {
		p := newPerson(f, faculties)
		secret := make([]byte, 20)
		for j := range secret {
			secret[j] = byte(f.IntN(256))
		}
		out[i] = store.User{
			Fixture:      fu.name,
			Role:         fu.role,
			ID:           p.ID,
			UserID:       p.UserID,
			Name:         p.Name,
			Email:        p.Email,
			MatricNo:     p.MatricNo,
			PhotoURL:     p.Photo,
			Token:        fmt.Sprintf("%s-%s", fu.name, hex(f, 16)),
			TOTPSecret:   totp.EncodeSecret(secret),
			CredentialID: "SYMC" + f.DigitN(8),
			ApprovesPush: fu.approves,
		}
	}
	return out
}

func (p person) asUser() store.User {
	return store.User{ID: p.ID, UserID: p.UserID, Name: p.Name, Email: p.Email, MatricNo: p.MatricNo, PhotoURL: p.Photo}
}
