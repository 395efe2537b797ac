select json_object(
  'info', json_object('id', s.id, 'slug', s.slug, 'projectID', s.project_id,
    'directory', s.directory, 'parentID', s.parent_id, 'title', s.title, 'version', s.version,
    'agent', s.agent, 'model', json(s.model), 'revert', json(s.revert),
    'time', json_object('created', s.time_created, 'updated', s.time_updated)),
  'messages', (select json_group_array(json(x.m)) from (
    select json_object('info', json_patch(m.data, json_object('id', m.id, 'sessionID', m.session_id)),
      'parts', (select json_group_array(json(y.p)) from (
        select json_patch(p.data, json_object('id', p.id, 'messageID', p.message_id, 'sessionID', p.session_id)) as p
        from part p where p.message_id = m.id order by p.id) y)) as m
    from message m where m.session_id = s.id order by m.id) x))
from session s where s.id = :session
